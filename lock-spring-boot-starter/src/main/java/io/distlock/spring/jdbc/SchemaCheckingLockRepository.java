package io.distlock.spring.jdbc;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * The lock repository of {@code distributed-lock.startup-check=lazy}: checks the lock table before its first
 * operation instead of at start-up, and again before each operation until a check succeeds, so that an application
 * started while its database was down fails lock calls with the real cause (the database does not answer, or the
 * table is missing and how to create it) rather than with a bare SQL error.
 */
final class SchemaCheckingLockRepository implements LockRepository {

    private final LockRepository delegate;

    private volatile boolean verified;

    SchemaCheckingLockRepository(LockRepository delegate) {
        this.delegate = delegate;
    }

    /**
     * The repository that runs the statements.
     *
     * @return the checked repository
     */
    LockRepository delegate() {
        return delegate;
    }

    /**
     * Whether a check of the lock table has succeeded since start.
     *
     * @return {@code true} once verified
     */
    boolean isVerified() {
        return verified;
    }

    @Override
    public Optional<LockRecord> acquire(String resource, String owner, Duration ttl) {
        verifiedOnce();
        return delegate.acquire(resource, owner, ttl);
    }

    @Override
    public RenewResult renew(String resource, String owner, Duration ttl) {
        verifiedOnce();
        return delegate.renew(resource, owner, ttl);
    }

    @Override
    public Map<LeaseKey, LockRecord> renewAll(Collection<LeaseKey> leases, Duration ttl) {
        verifiedOnce();
        return delegate.renewAll(leases, ttl);
    }

    @Override
    public LockResult release(String resource, String owner, Duration minHold) {
        verifiedOnce();
        return delegate.release(resource, owner, minHold);
    }

    @Override
    public LockResult forceRelease(String resource, long token) {
        verifiedOnce();
        return delegate.forceRelease(resource, token);
    }

    @Override
    public Optional<LockRecord> find(String resource) {
        verifiedOnce();
        return delegate.find(resource);
    }

    @Override
    public List<LockRecord> findAll() {
        verifiedOnce();
        return delegate.findAll();
    }

    @Override
    public int deleteExpired(Duration retention) {
        verifiedOnce();
        return delegate.deleteExpired(retention);
    }

    @Override
    public SlotClaim claimSlot(String job, String owner, Instant slot, boolean rerunUnfinished) {
        verifiedOnce();
        return delegate.claimSlot(job, owner, slot, rerunUnfinished);
    }

    @Override
    public void finishSlot(String job, Instant slot, long token, SlotRunOutcome outcome) {
        verifiedOnce();
        delegate.finishSlot(job, slot, token, outcome);
    }

    @Override
    public List<SlotRun> recentSlotRuns(@Nullable String job, int limit) {
        verifiedOnce();
        return delegate.recentSlotRuns(job, limit);
    }

    @Override
    public void verifySlots() {
        verifiedOnce();
        delegate.verifySlots();
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
        verified = true;
    }

    private void verifiedOnce() {
        if (!verified) {
            verifySchema();
        }
    }

    @Override
    public String toString() {
        return "SchemaCheckingLockRepository[" + delegate + "]";
    }
}
