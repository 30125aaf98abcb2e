package io.distlock.torture;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import io.distlock.core.DelegatingLockRepository;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;

/**
 * A worker's lock repository, timing every acquire: each call slower than {@link #REPORTED_FROM} is printed as a
 * {@code SLOWACQUIRE} event, with its end (wall clock) and whether it answered a lock, so that the checker can hold
 * each to the statement bound. Every other call goes straight to the store's repository, the reservation for renewals
 * included.
 */
final class TimedRepository extends DelegatingLockRepository {

    /** Acquires at least this slow are reported one by one. */
    static final Duration REPORTED_FROM = Duration.ofMillis(300);

    private final EventSink events;

    private final AtomicLong maxAcquireMillis = new AtomicLong();

    TimedRepository(LockRepository delegate, EventSink events) {
        super(delegate);
        this.events = events;
    }

    /** @return the slowest acquire so far, in milliseconds */
    long maxAcquireMillis() {
        return maxAcquireMillis.get();
    }

    @Override
    public Optional<LockRecord> acquire(String resource, String owner, Duration ttl) {
        long start = System.nanoTime();
        String outcome = "threw";
        try {
            Optional<LockRecord> acquired = super.acquire(resource, owner, ttl);
            outcome = acquired.isPresent() ? "acquired" : "not_acquired";
            return acquired;
        }
        finally {
            long millis = (System.nanoTime() - start) / 1_000_000;
            maxAcquireMillis.accumulateAndGet(millis, Math::max);
            if (millis >= REPORTED_FROM.toMillis()) {
                events.event("SLOWACQUIRE", resource + " ms=" + millis + " outcome=" + outcome + " end="
                        + Instant.now());
            }
        }
    }

    @Override
    public String toString() {
        return "Timed[" + delegate() + "]";
    }

    /** Where a worker prints its events. */
    @FunctionalInterface
    interface EventSink {

        void event(String kind, String detail);
    }
}
