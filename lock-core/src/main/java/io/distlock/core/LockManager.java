package io.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

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

    /** The metrics label of locks taken without a name of their own. */
    public static final String PROGRAMMATIC = "programmatic";

    private final LockRepository repository;

    private final OwnerGenerator ownerGenerator;

    private final LeaseWatchdog watchdog;

    private final boolean ownsWatchdog;

    private final List<LeaseLostListener> lostListeners;

    private final List<LockObserver> observers;

    private final Set<Lease> activeLeases = ConcurrentHashMap.newKeySet();

    private final AtomicLong lostLeases = new AtomicLong();

    private LockManager(Builder builder) {
        this.repository = builder.repository;
        this.ownerGenerator = builder.ownerGenerator;
        this.ownsWatchdog = builder.watchdog == null;
        this.watchdog = ownsWatchdog ? new LeaseWatchdog(repository, builder.watchdogSettings) : builder.watchdog;
        this.lostListeners = List.copyOf(builder.lostListeners);
        this.observers = List.copyOf(builder.observers);
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
        return tryAcquire(resource, ttl, PROGRAMMATIC);
    }

    /**
     * Takes the lock if it is free or expired; never waits.
     *
     * @param resource the resource to lock
     * @param ttl how long the lease lasts unless renewed
     * @param name the label under which {@link LockObserver}s record this lock, such as a resource template; keep
     *     the number of distinct names small
     * @return the lease, or empty when another owner holds the lock
     * @throws IllegalArgumentException for a bad resource or TTL
     * @throws org.springframework.dao.DataAccessException when the database does not answer
     */
    public Optional<Lease> tryAcquire(String resource, Duration ttl, String name) {
        long start = System.nanoTime();
        return observed(name, resource, start, attempt(resource, ttl, name, start));
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
        return acquire(resource, ttl, maxWait, PROGRAMMATIC);
    }

    /**
     * Takes the lock, polling with exponential backoff and jitter while another owner holds it.
     *
     * @param resource the resource to lock
     * @param ttl how long the lease lasts unless renewed
     * @param maxWait how long to keep trying
     * @param name the label under which {@link LockObserver}s record this lock
     * @return the lease, or empty when the lock stayed held for {@code maxWait}
     * @throws InterruptedException when the thread is interrupted while waiting
     */
    public Optional<Lease> acquire(String resource, Duration ttl, Duration maxWait, String name)
            throws InterruptedException {
        LockArguments.requireDuration("maxWait", maxWait, Duration.ZERO, Duration.ofDays(1));
        long start = System.nanoTime();
        long deadline = start + maxWait.toNanos();
        long backoff = MIN_BACKOFF_NANOS;
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException("Interrupted while waiting for the lock on '" + resource + "'");
            }
            Optional<Lease> lease = attempt(resource, ttl, name, start);
            long remaining = deadline - System.nanoTime();
            if (lease.isPresent() || remaining <= 0) {
                return observed(name, resource, start, lease);
            }
            long jittered = backoff / 2 + ThreadLocalRandom.current().nextLong(backoff / 2 + 1);
            TimeUnit.NANOSECONDS.sleep(Math.min(jittered, remaining));
            backoff = Math.min(MAX_BACKOFF_NANOS, backoff * 2);
        }
    }

    private Optional<Lease> attempt(String resource, Duration ttl, String name, long start) {
        String owner = ownerGenerator.nextOwner();
        long sentAt = System.nanoTime();
        try {
            return repository.acquire(resource, owner, ttl).map(record -> new Lease(this, record, ttl, sentAt, name));
        }
        catch (RuntimeException ex) {
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            notifyObservers(observer -> observer.acquireFailed(name, resource, elapsed, ex));
            throw ex;
        }
    }

    private Optional<Lease> observed(String name, String resource, long start, Optional<Lease> lease) {
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        if (lease.isPresent()) {
            activeLeases.add(lease.get());
            notifyObservers(observer -> observer.acquired(name, lease.get(), elapsed));
        }
        else {
            notifyObservers(observer -> observer.held(name, resource, elapsed));
        }
        return lease;
    }

    /**
     * The leases this manager handed out that are neither released nor lost (found gone, or run out).
     *
     * @return a snapshot, ordered by resource
     */
    public List<Lease> activeLeases() {
        // Leases dropped without a release leave here once their TTL has run out.
        activeLeases.removeIf(lease -> lease.isReleased() || lease.isLost());
        return activeLeases.stream().sorted(Comparator.comparing(Lease::resource)).toList();
    }

    /**
     * How many leases of this manager were found lost since it was built.
     *
     * @return the count
     */
    public long lostLeaseCount() {
        return lostLeases.get();
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
        activeLeases.remove(lease);
        lostLeases.incrementAndGet();
        for (LeaseLostListener listener : lostListeners) {
            try {
                listener.leaseLost(lease, reason);
            }
            catch (RuntimeException ex) {
                logger.warn("Lease-lost listener {} failed", listener, ex);
            }
        }
        notifyObservers(observer -> observer.lost(lease, reason));
    }

    void leaseReleased(Lease lease, Duration held) {
        activeLeases.remove(lease);
        notifyObservers(observer -> observer.released(lease, held));
    }

    void leaseRenewed(Lease lease) {
        notifyObservers(observer -> observer.renewed(lease));
    }

    void leaseRenewalFailed(Lease lease, RuntimeException error) {
        notifyObservers(observer -> observer.renewalFailed(lease, error));
    }

    private void notifyObservers(Consumer<LockObserver> event) {
        for (LockObserver observer : observers) {
            try {
                event.accept(observer);
            }
            catch (RuntimeException ex) {
                logger.warn("Lock observer {} failed", observer, ex);
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

        private final List<LockObserver> observers = new ArrayList<>();

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
         * Adds an observer told about every acquire, renewal, loss and release of this manager's leases.
         *
         * @param observer the observer
         * @return this builder
         */
        public Builder observer(LockObserver observer) {
            this.observers.add(Objects.requireNonNull(observer, "observer"));
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
