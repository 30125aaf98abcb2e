package io.distlock.spring.dashboard;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.distlock.core.LockRepository;
import io.distlock.core.SlotRun;
import io.distlock.core.SlotStore;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;

/**
 * Reads the lock store for the dashboard, bounded in time and in load: a read younger than the snapshot age is
 * shared by every request; otherwise one read at a time runs on a thread of its own, and a request waits for it at
 * most the store timeout. A store that does not answer leaves the request with the last good snapshot and why it is
 * stale, never waiting longer and never starting a second read beside one still running.
 */
final class LockSnapshots implements DisposableBean {

    private static final Logger logger = LoggerFactory.getLogger(LockSnapshots.class);

    private final LockRepository repository;

    private final Duration maxAge;

    private final Duration timeout;

    private final Clock clock;

    private final ExecutorService reader = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "distlock-dashboard-reader");
        thread.setDaemon(true);
        return thread;
    });

    private volatile @Nullable LockSnapshot latest;

    private @Nullable CompletableFuture<LockSnapshot> inFlight;

    LockSnapshots(LockRepository repository, Duration maxAge, Duration timeout, Clock clock) {
        this.repository = repository;
        this.maxAge = maxAge;
        this.timeout = timeout;
        this.clock = clock;
    }

    /**
     * The store's state, as fresh as the snapshot age allows.
     *
     * @return the snapshot, or the last good one with the reason it is stale
     */
    Reading read() {
        LockSnapshot last = latest;
        if (last != null && Duration.between(last.readAt(), clock.instant()).compareTo(maxAge) < 0) {
            return new Reading(last, null);
        }
        CompletableFuture<LockSnapshot> reading = start();
        try {
            return new Reading(reading.get(timeout.toMillis(), TimeUnit.MILLISECONDS), null);
        }
        catch (TimeoutException ex) {
            return new Reading(latest, "the lock store did not answer within " + timeout);
        }
        catch (ExecutionException ex) {
            Throwable cause = ex.getCause() != null ? ex.getCause() : ex;
            return new Reading(latest, "the lock store failed: " + describe(cause));
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return new Reading(latest, "interrupted while waiting for the lock store");
        }
    }

    private synchronized CompletableFuture<LockSnapshot> start() {
        CompletableFuture<LockSnapshot> running = inFlight;
        if (running != null) {
            return running;
        }
        CompletableFuture<LockSnapshot> started = CompletableFuture.supplyAsync(this::readStore, reader);
        inFlight = started;
        started.whenComplete((snapshot, error) -> finished(started, snapshot, error));
        return started;
    }

    private synchronized void finished(CompletableFuture<LockSnapshot> done, @Nullable LockSnapshot snapshot,
            @Nullable Throwable error) {
        if (inFlight == done) {
            inFlight = null;
        }
        if (snapshot != null) {
            latest = snapshot;
        }
        else if (error != null) {
            logger.debug("The lock dashboard could not read the lock store", error);
        }
    }

    private LockSnapshot readStore() {
        return new LockSnapshot(repository.findAll(), SlotStore.recentRuns(repository, null, SlotRun.KEPT_PER_JOB),
                clock.instant());
    }

    private static String describe(Throwable error) {
        String message = error.getMessage();
        String text = error.getClass().getSimpleName() + (message != null ? ": " + message : "");
        return text.length() <= 300 ? text : text.substring(0, 299) + "…";
    }

    @Override
    public void destroy() {
        reader.shutdownNow();
    }

    /**
     * One answer to a request.
     *
     * @param snapshot the data: fresh when {@code problem} is {@code null}, else the last good one, or {@code null}
     *     when the store never answered
     * @param problem why the data is stale, or {@code null}
     */
    record Reading(@Nullable LockSnapshot snapshot, @Nullable String problem) {

        /**
         * When the data shown was read.
         *
         * @return the instant, or {@code null} without data
         */
        @Nullable Instant readAt() {
            return snapshot != null ? snapshot.readAt() : null;
        }
    }
}
