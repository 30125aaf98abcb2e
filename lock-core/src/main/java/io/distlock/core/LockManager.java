package io.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The programmatic API: takes locks as {@link Lease}s, each with an owner token of its own.
 *
 * <pre>{@code
 * try (Lease lease = locks.tryAcquire("report:2026-05", Duration.ofMinutes(5)).orElseThrow()) {
 *     lease.keepAlive(Duration.ofHours(1));
 *     writeReport(lease.token());
 * }
 * }</pre>
 *
 * Never returns a lease the caller does not hold: when the database does not answer, the call throws.
 */
public final class LockManager implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(LockManager.class);

    private static final long MIN_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final LockRepository repository;

    private final OwnerGenerator ownerGenerator;

    private final LeaseWatchdog watchdog;

    private final boolean ownsWatchdog;

    private final List<LeaseLostListener> lostListeners;

    private LockManager(Builder builder) {
        this.repository = builder.repository;
        this.ownerGenerator = builder.ownerGenerator;
        this.ownsWatchdog = builder.watchdog == null;
        this.watchdog = ownsWatchdog ? new LeaseWatchdog(repository, builder.watchdogSettings) : builder.watchdog;
        this.lostListeners = List.copyOf(builder.lostListeners);
    }

    /**
     * Starts building a manager on a repository.
     *
     * @param repository the lock table's operations
     * @return the builder
     */
    public static Builder builder(LockRepository repository) {
        return new Builder(repository);
    }

    /**
     * Takes the lock if it is free or expired; never waits.
     *
     * @param resource the resource to lock
     * @param ttl how long the lease lasts unless renewed
     * @return the lease, or empty when another owner holds the lock
     * @throws IllegalArgumentException for a bad resource or TTL
     * @throws org.springframework.dao.DataAccessException when the database does not answer
     */
    public Optional<Lease> tryAcquire(String resource, Duration ttl) {
        String owner = ownerGenerator.nextOwner();
        long sentAt = System.nanoTime();
        return repository.acquire(resource, owner, ttl).map(record -> new Lease(this, record, ttl, sentAt));
    }

    /**
     * Takes the lock, polling with exponential backoff and jitter while another owner holds it.
     *
     * @param resource the resource to lock
     * @param ttl how long the lease lasts unless renewed
     * @param maxWait how long to keep trying
     * @return the lease, or empty when the lock stayed held for {@code maxWait}
     * @throws InterruptedException when the thread is interrupted while waiting
     */
    public Optional<Lease> acquire(String resource, Duration ttl, Duration maxWait) throws InterruptedException {
        LockArguments.requireDuration("maxWait", maxWait, Duration.ZERO, Duration.ofDays(1));
        long deadline = System.nanoTime() + maxWait.toNanos();
        long backoff = MIN_BACKOFF_NANOS;
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException("Interrupted while waiting for the lock on '" + resource + "'");
            }
            Optional<Lease> lease = tryAcquire(resource, ttl);
            long remaining = deadline - System.nanoTime();
            if (lease.isPresent() || remaining <= 0) {
                return lease;
            }
            long jittered = backoff / 2 + ThreadLocalRandom.current().nextLong(backoff / 2 + 1);
            TimeUnit.NANOSECONDS.sleep(Math.min(jittered, remaining));
            backoff = Math.min(MAX_BACKOFF_NANOS, backoff * 2);
        }
    }

    /**
     * The repository leases are taken from.
     *
     * @return the repository
     */
    public LockRepository repository() {
        return repository;
    }

    /**
     * The watchdog that {@link Lease#keepAlive} hands leases to.
     *
     * @return the watchdog
     */
    public LeaseWatchdog watchdog() {
        return watchdog;
    }

    /**
     * Stops the watchdog if this manager created it.
     */
    @Override
    public void close() {
        if (ownsWatchdog) {
            watchdog.close();
        }
    }

    void leaseLost(Lease lease, String reason) {
        for (LeaseLostListener listener : lostListeners) {
            try {
                listener.leaseLost(lease, reason);
            }
            catch (RuntimeException ex) {
                logger.warn("Lease-lost listener {} failed", listener, ex);
            }
        }
    }

    /**
     * Configures a {@link LockManager}.
     */
    public static final class Builder {

        private final LockRepository repository;

        private OwnerGenerator ownerGenerator = new RandomOwnerGenerator();

        private @Nullable LeaseWatchdog watchdog;

        private WatchdogSettings watchdogSettings = WatchdogSettings.DEFAULT;

        private final List<LeaseLostListener> lostListeners = new ArrayList<>();

        private boolean verifySchema = true;

        private Builder(LockRepository repository) {
            this.repository = Objects.requireNonNull(repository, "repository");
        }

        /**
         * Sets how owner tokens are made; default {@link RandomOwnerGenerator}.
         *
         * @param ownerGenerator the generator
         * @return this builder
         */
        public Builder ownerGenerator(OwnerGenerator ownerGenerator) {
            this.ownerGenerator = Objects.requireNonNull(ownerGenerator, "ownerGenerator");
            return this;
        }

        /**
         * Shares a watchdog instead of creating one; the manager then does not close it.
         *
         * @param watchdog the watchdog
         * @return this builder
         */
        public Builder watchdog(LeaseWatchdog watchdog) {
            this.watchdog = Objects.requireNonNull(watchdog, "watchdog");
            return this;
        }

        /**
         * Sets how the manager's own watchdog renews leases; ignored when a watchdog is shared.
         *
         * @param settings the settings
         * @return this builder
         */
        public Builder watchdogSettings(WatchdogSettings settings) {
            this.watchdogSettings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /**
         * Adds a listener told about every lease of this manager that is found lost.
         *
         * @param listener the listener
         * @return this builder
         */
        public Builder lostListener(LeaseLostListener listener) {
            this.lostListeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Sets whether {@link #build()} checks the lock table first; default {@code true}.
         *
         * @param verifySchema whether to check
         * @return this builder
         */
        public Builder verifySchema(boolean verifySchema) {
            this.verifySchema = verifySchema;
            return this;
        }

        /**
         * Builds the manager, checking the lock table first unless told not to.
         *
         * @return the manager
         * @throws IllegalStateException when the lock table is missing
         */
        public LockManager build() {
            if (verifySchema) {
                repository.verifySchema();
            }
            return new LockManager(this);
        }
    }
}
