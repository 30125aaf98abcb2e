package io.distlock.torture;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.distlock.core.LeaseKey;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.LockResult;
import io.distlock.core.ReleaseFeed;
import io.distlock.core.RenewResult;
import io.distlock.core.SlotClaim;
import io.distlock.core.SlotRun;
import io.distlock.core.SlotRunOutcome;
import org.jspecify.annotations.Nullable;

/**
 * A worker's lock repository, timing every acquire: each call slower than {@link #REPORTED_FROM} is printed as a
 * {@code SLOWACQUIRE} event, with its end (wall clock) and whether it answered a lock, so that the checker can hold
 * each to the statement bound. Every other call goes straight to the store's repository, the reservation for renewals
 * included.
 */
final class TimedRepository implements LockRepository {

    /** Acquires at least this slow are reported one by one. */
    static final Duration REPORTED_FROM = Duration.ofMillis(300);

    private final LockRepository delegate;

    private final EventSink events;

    private final AtomicLong maxAcquireMillis = new AtomicLong();

    TimedRepository(LockRepository delegate, EventSink events) {
        this.delegate = delegate;
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
            Optional<LockRecord> acquired = delegate.acquire(resource, owner, ttl);
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
    public RenewResult renew(String resource, String owner, Duration ttl) {
        return delegate.renew(resource, owner, ttl);
    }

    @Override
    public Map<LeaseKey, LockRecord> renewAll(Collection<LeaseKey> leases, Duration ttl) {
        return delegate.renewAll(leases, ttl);
    }

    @Override
    public LockResult release(String resource, String owner, Duration minHold) {
        return delegate.release(resource, owner, minHold);
    }

    @Override
    public Optional<LockRecord> find(String resource) {
        return delegate.find(resource);
    }

    @Override
    public List<LockRecord> findAll() {
        return delegate.findAll();
    }

    @Override
    public int deleteExpired(Duration retention) {
        return delegate.deleteExpired(retention);
    }

    @Override
    public SlotClaim claimSlot(String job, String owner, Instant slot, boolean rerunUnfinished) {
        return delegate.claimSlot(job, owner, slot, rerunUnfinished);
    }

    @Override
    public void finishSlot(String job, Instant slot, long token, SlotRunOutcome outcome) {
        delegate.finishSlot(job, slot, token, outcome);
    }

    @Override
    public void verifySlots() {
        delegate.verifySlots();
    }

    @Override
    public List<SlotRun> recentSlotRuns(@Nullable String job, int limit) {
        return delegate.recentSlotRuns(job, limit);
    }

    @Override
    public void reserveForRenewals(boolean reserve) {
        delegate.reserveForRenewals(reserve);
    }

    @Override
    public ReleaseFeed openReleaseFeed(Consumer<String> listener) {
        return delegate.openReleaseFeed(listener);
    }

    @Override
    public void verifySchema() {
        delegate.verifySchema();
    }

    @Override
    public String toString() {
        return "Timed[" + delegate + "]";
    }

    /** Where a worker prints its events. */
    @FunctionalInterface
    interface EventSink {

        void event(String kind, String detail);
    }
}
