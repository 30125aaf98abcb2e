package io.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * A {@link LockRepository} that hands every call to another one, as Spring's {@code DelegatingDataSource} does for
 * data sources: a wrapper that times, counts or holds back some calls overrides those and inherits the rest, so that
 * every method of the store it wraps — slots, renewal reservations, release feeds included — keeps working through it.
 */
public class DelegatingLockRepository implements LockRepository {

    private final LockRepository delegate;

    /**
     * Wraps a repository.
     *
     * @param delegate the repository every call goes to
     */
    public DelegatingLockRepository(LockRepository delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /**
     * The wrapped repository.
     *
     * @return it
     */
    public final LockRepository delegate() {
        return delegate;
    }

    @Override
    public Optional<LockRecord> acquire(String resource, String owner, Duration ttl) {
        return delegate.acquire(resource, owner, ttl);
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
    public LockResult forceRelease(String resource, long token) {
        return delegate.forceRelease(resource, token);
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
    public void reserveForRenewals(Object holder, boolean reserve) {
        delegate.reserveForRenewals(holder, reserve);
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
        return getClass().getSimpleName() + "[" + delegate + "]";
    }
}
