package io.distlock.spring.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.TimeUnit;

import io.distlock.core.LockManager;
import io.distlock.core.LockOutcome;
import io.distlock.core.LockRequest;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * Deletes the rows of locks that expired more than the retention ago, every interval, on a daemon thread of its own
 * (the application's scheduler, if any, is not used, so no {@code @EnableScheduling} is needed). One replica at a
 * time runs it, under the lock {@value #LOCK}; a replica that finds that lock held skips its turn. A failure is logged
 * and the next turn comes as planned. Starts with the application context and stops with it.
 */
final class ExpiredLockCleanup implements SmartLifecycle {

    /** The lock the clean-up runs under, and its metrics label. */
    static final String LOCK = "distlock:cleanup";

    private static final Logger logger = LoggerFactory.getLogger(ExpiredLockCleanup.class);

    /** How long the clean-up lock lasts at most: it is released as soon as the delete returns. */
    private static final Duration LOCK_TTL = Duration.ofMinutes(5);

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    /** The name prefix of this instance's thread: {@code distlock-cleanup-<n>-}. */
    final String threadNamePrefix = "distlock-cleanup-" + INSTANCES.incrementAndGet() + "-";

    private final LockManager lockManager;

    private final Duration retention;

    private final Duration interval;

    private final LockRequest request;

    private final List<LockCleanupListener> listeners;

    private volatile @Nullable ScheduledExecutorService scheduler;

    /**
     * Creates the clean-up.
     *
     * @param lockManager takes the clean-up lock; its repository deletes the rows
     * @param retention how long an expired row is kept
     * @param interval time between two runs
     * @param maxTtl the longest lease the repository accepts, which caps the clean-up lock's TTL
     * @param listeners told how many rows each run deleted
     */
    ExpiredLockCleanup(LockManager lockManager, Duration retention, Duration interval, Duration maxTtl,
            List<LockCleanupListener> listeners) {
        this.lockManager = lockManager;
        this.retention = retention;
        this.interval = interval;
        this.request = LockRequest.of(LOCK, LOCK_TTL.compareTo(maxTtl) < 0 ? LOCK_TTL : maxTtl).withoutRenewal()
            .withLabel(LOCK);
        this.listeners = List.copyOf(listeners);
    }

    /**
     * Runs one clean-up now, on the calling thread, unless another replica is running one.
     *
     * @return how many rows were deleted, or {@code -1} when another replica held the clean-up lock
     */
    int cleanUp() {
        LockOutcome<Integer> outcome = lockManager.runLocked(request,
                lease -> lockManager.repository().deleteExpired(retention));
        if (outcome.status() == LockOutcome.Status.NOT_ACQUIRED) {
            logger.debug("Skipped the clean-up of expired lock rows: another replica is running it");
            return -1;
        }
        int deleted = outcome.value() != null ? outcome.value() : 0;
        logger.debug("Deleted {} lock rows expired more than {} ago", deleted, retention);
        for (LockCleanupListener listener : listeners) {
            listener.deleted(deleted);
        }
        return deleted;
    }

    private void scheduledCleanUp() {
        try {
            cleanUp();
        }
        catch (RuntimeException ex) {
            if (isRunning()) {
                logger.warn("Could not delete expired lock rows; trying again in {}", interval, ex);
            }
            else {
                logger.debug("Clean-up of expired lock rows ended by shutdown", ex);
            }
        }
    }

    @Override
    public void start() {
        if (scheduler != null) {
            return;
        }
        CustomizableThreadFactory threads = new CustomizableThreadFactory(threadNamePrefix);
        threads.setDaemon(true);
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, threads);
        executor.setRemoveOnCancelPolicy(true);
        long nanos = interval.toNanos();
        executor.scheduleWithFixedDelay(this::scheduledCleanUp, nanos, nanos, TimeUnit.NANOSECONDS);
        scheduler = executor;
    }

    @Override
    public void stop() {
        ScheduledExecutorService executor = scheduler;
        scheduler = null;
        if (executor == null) {
            return;
        }
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                logger.warn("The clean-up of expired lock rows did not stop within {}", STOP_TIMEOUT);
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return scheduler != null;
    }

    @Override
    public String toString() {
        return "ExpiredLockCleanup[retention=" + retention + ", interval=" + interval + "]";
    }
}
