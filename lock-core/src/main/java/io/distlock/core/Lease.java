package io.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A held lock: its fencing token, its expiry, and the means to renew, keep alive and release it. Closing the lease
 * releases it, so try-with-resources bounds the critical section.
 *
 * <p>A lease counts as lost once it is known to be gone (a renewal or release found another owner or no live row,
 * or the watchdog could not renew it in time) and also once its TTL has run out on this machine's monotonic clock,
 * measured from the moment the acquire or last renew statement was sent. The second rule errs on the safe side: a
 * holder never believes in a lease longer than the database could have kept it.
 */
public final class Lease implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(Lease.class);

    private final LockManager manager;

    private final Duration ttl;

    private final String name;

    private final long acquiredAtNanos;

    private final List<LeaseLostListener> lostListeners = new CopyOnWriteArrayList<>();

    private final AtomicBoolean lost = new AtomicBoolean();

    private final AtomicBoolean released = new AtomicBoolean();

    private volatile LockRecord record;

    private volatile long renewedAtNanos;

    /** The TTL last sent to the database: the original one, or a manual renewal's. */
    private volatile long leaseNanos;

    private volatile @Nullable String lostReason;

    Lease(LockManager manager, LockRecord record, Duration ttl, long sentAtNanos, String name) {
        this.manager = manager;
        this.record = record;
        this.ttl = ttl;
        this.name = name;
        this.renewedAtNanos = sentAtNanos;
        this.leaseNanos = ttl.toNanos();
        this.acquiredAtNanos = sentAtNanos;
    }

    /** @return the locked resource's name */
    public String resource() {
        return record.resource();
    }

    /** @return this acquisition's owner token */
    public String owner() {
        return record.owner();
    }

    /**
     * The fencing token: pass it with every write to the protected resource, which should refuse tokens lower than
     * the highest it has accepted.
     *
     * @return the token, larger than every token issued for this resource before this acquisition
     */
    public long token() {
        return record.token();
    }

    /** @return when this owner took the lock (database time) */
    public Instant acquiredAt() {
        return record.acquiredAt();
    }

    /** @return when the lease runs out unless renewed (database time), as of the last acquire or renewal */
    public Instant expiresAt() {
        return record.expiresAt();
    }

    /** @return the label observers record this lock under: a resource template, a caller's name or {@code programmatic} */
    public String name() {
        return name;
    }

    /** @return the lease length this lease was taken with, and is renewed with */
    public Duration ttl() {
        return ttl;
    }

    /** @return the lock's state as of the last acquire or renewal */
    public LockRecord record() {
        return record;
    }

    /** @return the resource and owner this lease addresses */
    public LeaseKey key() {
        return record.key();
    }

    /**
     * Whether the lease can no longer be relied on: found gone, or its TTL ran out since the last confirmed renewal.
     *
     * @return {@code true} when lost; {@code false} after a release by the holder
     */
    public boolean isLost() {
        if (lost.get()) {
            return true;
        }
        return !released.get() && System.nanoTime() - localDeadlineNanos() >= 0;
    }

    /**
     * Why the lease is known to be lost.
     *
     * @return the reason, or empty while the lease is not known lost
     */
    public Optional<String> lostReason() {
        return lost.get() ? Optional.ofNullable(lostReason) : Optional.empty();
    }

    /** @return whether the holder released this lease */
    public boolean isReleased() {
        return released.get();
    }

    /**
     * Throws when the lease is lost, so that long work can check between steps.
     *
     * @throws LockLostException when {@link #isLost()}
     * @throws IllegalStateException when the lease was already released
     */
    public void checkHeld() {
        if (isLost()) {
            String reason = lostReason;
            throw new LockLostException(resource(), owner(), reason != null ? reason : "its TTL of " + ttl
                    + " ran out without a renewal");
        }
        if (released.get()) {
            throw new IllegalStateException("The lease on '" + resource() + "' was already released");
        }
    }

    /**
     * Extends the lease now to {@code ttl} from now (database time).
     *
     * @param newTtl the new lease length
     * @return the outcome; when refused, the lease is marked lost
     */
    public RenewResult renew(Duration newTtl) {
        if (released.get()) {
            throw new IllegalStateException("Cannot renew the released lease on '" + resource() + "'");
        }
        long sentAt = System.nanoTime();
        RenewResult result;
        try {
            result = manager.repository().renew(resource(), owner(), newTtl);
        }
        catch (RuntimeException ex) {
            renewalFailed(ex);
            throw ex;
        }
        if (result.record() != null) {
            renewed(result.record(), sentAt, newTtl);
        }
        else {
            markLost("renewal found the lease " + (result.status() == LockResult.FORBIDDEN
                    ? "held by another owner" : "expired"));
        }
        return result;
    }

    /**
     * Hands the lease to the manager's watchdog, which renews it at a fraction of its TTL until it is released,
     * lost, or {@code maxHold} has passed.
     *
     * @param maxHold how long the watchdog keeps renewing at most
     * @return this lease
     */
    public Lease keepAlive(Duration maxHold) {
        manager.watchdog().watch(this, maxHold);
        return this;
    }

    /**
     * Registers a listener told when this lease is found lost.
     *
     * @param listener the listener
     * @return this lease
     */
    public Lease onLost(LeaseLostListener listener) {
        lostListeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    /**
     * Releases the lock at once. The watchdog stops renewing it first.
     *
     * @return the outcome; {@link LockResult#NOT_FOUND} when called again
     */
    public LockResult release() {
        return release(Duration.ZERO);
    }

    /**
     * Releases the lock, keeping it held until {@code minHold} after it was acquired if that is still ahead.
     *
     * @param minHold minimum time between acquisition and the lock becoming free
     * @return the outcome; {@link LockResult#NOT_FOUND} when called again
     */
    public LockResult release(Duration minHold) {
        if (!released.compareAndSet(false, true)) {
            return LockResult.NOT_FOUND;
        }
        manager.watchdog().unwatch(this);
        LockResult result;
        try {
            result = manager.repository().release(resource(), owner(), minHold);
        }
        finally {
            manager.leaseReleased(this, Duration.ofNanos(System.nanoTime() - acquiredAtNanos));
        }
        if (result != LockResult.APPLIED) {
            markLost("release found the lease " + (result == LockResult.FORBIDDEN
                    ? "held by another owner" : "expired"));
        }
        return result;
    }

    /**
     * Releases the lease unless it was released already.
     */
    @Override
    public void close() {
        if (!released.get()) {
            release();
        }
    }

    void renewed(LockRecord renewedRecord, long sentAtNanos, Duration sentTtl) {
        this.record = renewedRecord;
        this.renewedAtNanos = sentAtNanos;
        this.leaseNanos = sentTtl.toNanos();
        manager.leaseRenewed(this);
    }

    void renewalFailed(RuntimeException error) {
        manager.leaseRenewalFailed(this, error);
    }

    long renewedAtNanos() {
        return renewedAtNanos;
    }

    long localDeadlineNanos() {
        return renewedAtNanos + leaseNanos;
    }

    void markLost(String reason) {
        if (!lost.compareAndSet(false, true)) {
            return;
        }
        lostReason = reason;
        logger.warn("Lost the lock on '{}' (owner {}, token {}): {}", resource(), owner(), token(), reason);
        for (LeaseLostListener listener : lostListeners) {
            try {
                listener.leaseLost(this, reason);
            }
            catch (RuntimeException ex) {
                logger.warn("Lease-lost listener {} failed", listener, ex);
            }
        }
        manager.leaseLost(this, reason);
    }

    @Override
    public String toString() {
        return "Lease[resource=" + resource() + ", owner=" + owner() + ", token=" + token() + ", expiresAt="
                + expiresAt() + (lost.get() ? ", lost" : "") + (released.get() ? ", released" : "") + "]";
    }
}
