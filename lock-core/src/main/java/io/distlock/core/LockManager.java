package io.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Takes locks as {@link Lease}s, each with an owner token of its own, and runs work under them.
 *
 * <pre>{@code
 * LockManager locks = LockManager.builder(repository).build();
 *
 * LockOutcome<Report> outcome = locks.runLocked(LockRequest.of("report:2026-05", Duration.ofMinutes(5)),
 *         lease -> reports.generate(lease.token()));
 * }</pre>
 *
 * {@link #runLocked} is the whole policy in one call: acquire (or join the lease of an enclosing call on the same
 * resource and thread), keep the lease alive, run the work, release honouring the minimum hold, and report how it
 * ended. Never hands out a lease the caller does not hold: when the database does not answer, the call throws.
 *
 * <p>One concept, hence its length: the library's public face, each call with its documented behaviour, and its
 * builder; the work is done by {@link Acquisitions}, {@link LockedRuns},
 * {@link SlotRuns}, {@link AsyncAcquisition}, the {@link LeaseRegistry} of the leases it handed out, and the
 * {@link LeaseWatchdog}.
 */
public final class LockManager implements AutoCloseable {

    /** The longest pause between two attempts of a waiting acquire, unless the builder sets another. */
    public static final Duration DEFAULT_MAX_POLL_INTERVAL = Duration.ofSeconds(1);

    private final LockRepository repository;

    private final LeaseWatchdog watchdog;

    private final boolean ownsWatchdog;

    private final LeaseRegistry host;

    private final Acquisitions acquisitions;

    private final LockedRuns runs;

    private final SlotRuns slots;

    private LockManager(Builder builder) {
        this.repository = builder.repository;
        this.ownsWatchdog = builder.watchdog == null;
        this.watchdog = ownsWatchdog ? new LeaseWatchdog(repository, builder.watchdogSettings) : builder.watchdog;
        LockEvents events = new LockEvents(builder.lostListeners, builder.observers);
        this.host = new LeaseRegistry(repository, watchdog, events);
        this.acquisitions = new Acquisitions(repository, builder.ownerGenerator, host, builder.maxPollInterval);
        this.runs = new LockedRuns(host, acquisitions, builder.interruptOnLoss,
                new LockObservations(builder.observationRegistry));
        this.slots = new SlotRuns(this, events);
    }

    /**
     * Starts building a manager on a repository.
     *
     * @param repository the lock store's operations
     * @return the builder
     */
    public static Builder builder(LockRepository repository) {
        return new Builder(repository);
    }

    /**
     * Runs work while holding the lock a request names: acquires it (waiting as the request says) or joins the
     * lease an enclosing {@code runLocked} call on this thread holds on the same resource; keeps the lease alive
     * unless the request says not to; binds it to the thread for {@link CurrentLease}; runs the work; releases the
     * lock honouring the request's minimum hold (a joined lease is left to the enclosing call). When the work throws,
     * the lock is released first and the exception rethrown, with a {@link LockLostException} added as suppressed if
     * the lease was lost meanwhile.
     *
     * @param request what to lock and how
     * @param work the work to run under the lock
     * @param <T> what the work returns
     * @param <E> what the work may throw
     * @return {@link LockOutcome.Status#RAN} with the work's value, {@link LockOutcome.Status#NOT_ACQUIRED} when
     *     another owner held the lock (or the wait was interrupted: the thread's interrupt flag is then set again),
     *     or {@link LockOutcome.Status#LOST} with the value and the loss
     * @throws E what the work threw
     * @throws org.springframework.dao.DataAccessException when the database does not answer the acquire: the work
     *     does not run
     */
    public <T, E extends Throwable> LockOutcome<T> runLocked(LockRequest request, LockedWork<T, E> work) throws E {
        return runs.run(request, Objects.requireNonNull(work, "work"));
    }

    /**
     * Runs the work of one scheduled slot of a job exactly once across replicas: under the job's lock, claims the slot
     * only if it is later than the job's last claimed slot (or, at least once, a slot whose run crashed), tells
     * crashed and missed slots, runs the work with the slot bound to the thread ({@link SlotExecution#current()}),
     * and records how the run ended in the slot history. A late replica — clock skew, a pause, a slow start, even a
     * skew larger than the period — finds its slot already claimed and skips it.
     *
     * @param request the job, the slot and the policies
     * @param work the slot's work
     * @param <T> what the work returns
     * @param <E> what the work may throw
     * @return how the call ended
     * @throws E what the work threw (the run is recorded as failed)
     * @throws org.springframework.dao.DataAccessException when the database does not answer: the slot does not run,
     *     and the next claim counts it as missed
     */
    public <T, E extends Throwable> SlotOutcome<T> runOncePerSlot(SlotRequest request, LockedWork<T, E> work)
            throws E {
        return slots.run(request, Objects.requireNonNull(work, "work"));
    }

    /**
     * Takes the lock a request names, waiting for it as the request says, and has the watchdog keep the lease alive
     * unless the request says not to. Release it with {@link Lease#release()} or {@link Lease#close()}, which honour
     * the request's minimum hold.
     *
     * @param request what to lock and how
     * @return the lease, or empty when another owner held the lock (for the whole wait)
     * @throws InterruptedException when the thread is interrupted while waiting
     * @throws org.springframework.dao.DataAccessException when the database does not answer
     */
    public Optional<Lease> acquire(LockRequest request) throws InterruptedException {
        return acquisitions.acquire(request);
    }

    /**
     * Takes the lock a request names without holding a thread while it waits, for asynchronous and reactive work:
     * each attempt is one store statement run on {@code executor}, the pauses between attempts (the backoff of
     * {@link #acquire(LockRequest)}, not woken by releases) hold no thread, and the lease is kept alive as the
     * request says. The observers are told once, when the lease is taken or the wait given up, as for a waiting
     * {@link #acquire(LockRequest)}. Cancelling the returned future stops the wait; a lease that an attempt in flight
     * takes after that is released at once.
     *
     * @param request what to lock and how
     * @param executor runs the attempts, each a blocking store statement (for example Reactor's bounded-elastic
     *     scheduler, never an event loop)
     * @return the lease, or empty when another owner held the lock for the whole wait; completed exceptionally with
     *     the store's {@code DataAccessException} when it does not answer, or with the executor's refusal
     */
    public CompletableFuture<Optional<Lease>> acquireAsync(LockRequest request, Executor executor) {
        return AsyncAcquisition.start(acquisitions, Objects.requireNonNull(request, "request"),
                Objects.requireNonNull(executor, "executor"));
    }

    /**
     * Takes the lock if it is free or expired; never waits. The lease is not kept alive: call
     * {@link Lease#keepAlive}, or use {@link #acquire(LockRequest)} or {@link #runLocked}.
     *
     * @param resource the resource to lock
     * @param ttl how long the lease lasts unless renewed
     * @return the lease, or empty when another owner holds the lock
     * @throws IllegalArgumentException for a bad resource or TTL
     * @throws org.springframework.dao.DataAccessException when the database does not answer
     */
    public Optional<Lease> tryAcquire(String resource, Duration ttl) {
        return acquisitions.once(LockRequest.of(resource, ttl).withoutRenewal());
    }

    /**
     * Takes the lock, polling with exponential backoff and jitter while another owner holds it. The lease is not kept
     * alive: call {@link Lease#keepAlive}, or use {@link #acquire(LockRequest)} or {@link #runLocked}.
     *
     * @param resource the resource to lock
     * @param ttl how long the lease lasts unless renewed
     * @param maxWait how long to keep trying
     * @return the lease, or empty when the lock stayed held for {@code maxWait}
     * @throws InterruptedException when the thread is interrupted while waiting
     */
    public Optional<Lease> acquire(String resource, Duration ttl, Duration maxWait) throws InterruptedException {
        return acquisitions.waiting(LockRequest.of(resource, ttl).withMaxWait(maxWait).withoutRenewal());
    }

    /**
     * The leases this manager handed out that are neither released nor lost (found gone, or run out).
     *
     * @return a snapshot, ordered by resource
     */
    public List<Lease> activeLeases() {
        return host.activeLeases();
    }

    /**
     * How many leases of this manager were found lost since it was built.
     *
     * @return the count
     */
    public long lostLeaseCount() {
        return host.lostCount();
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
     * The watchdog that keeps this manager's leases alive, for inspection ({@link LeaseWatchdog#watchedCount()}).
     *
     * @return the watchdog
     */
    public LeaseWatchdog watchdog() {
        return watchdog;
    }

    /**
     * Stops the watchdog if this manager created it, closes the store's feed of releases (on PostgreSQL: gives
     * back the connection listening for notifications), and stops giving back what acquires without an answer may
     * have taken (such a lock then runs out by its TTL).
     */
    @Override
    public void close() {
        host.releases().close();
        host.giveBacks().close();
        if (ownsWatchdog) {
            watchdog.close();
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

        private boolean interruptOnLoss;

        private Duration maxPollInterval = DEFAULT_MAX_POLL_INTERVAL;

        private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;

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
         * Sets whether {@link #runLocked} interrupts the thread running the work when its lease is found lost;
         * default {@code false}. The interrupt it caused is cleared when the work ends.
         *
         * @param interruptOnLoss whether to interrupt
         * @return this builder
         */
        public Builder interruptOnLoss(boolean interruptOnLoss) {
            this.interruptOnLoss = interruptOnLoss;
            return this;
        }

        /**
         * Sets the longest pause between two attempts of a waiting acquire (the backoff starts at 20 ms and doubles);
         * default {@link #DEFAULT_MAX_POLL_INTERVAL}. A release of this manager's own lease wakes its waiters at once
         * whatever the pause, and so does a release elsewhere that the store tells of ({@link ReleaseFeed}; the JDBC
         * store's on PostgreSQL).
         *
         * @param maxPollInterval the longest pause, 20 ms to 1 hour
         * @return this builder
         */
        public Builder maxPollInterval(Duration maxPollInterval) {
            this.maxPollInterval = LockArguments.requireDuration("maxPollInterval", maxPollInterval,
                    Duration.ofNanos(Acquisitions.MIN_BACKOFF_NANOS), Duration.ofHours(1));
            return this;
        }

        /**
         * Records every {@link #runLocked} call as the observations {@code distributed.lock.call} (the whole call) and
         * {@code distributed.lock.work} (the work under the lease), nested in the caller's current observation: spans
         * when tracing is on. Default: none.
         *
         * @param registry the registry
         * @return this builder
         */
        public Builder observationRegistry(ObservationRegistry registry) {
            this.observationRegistry = Objects.requireNonNull(registry, "registry");
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
                SchemaVerification.verify(repository);
            }
            return new LockManager(this);
        }
    }
}
