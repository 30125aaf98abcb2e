package io.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

/**
 * A held lock: its fencing token, its expiry, and the means to renew, keep alive and release it. Closing the lease
 * releases it, honouring the minimum hold it was taken with, so try-with-resources bounds the critical section.
 *
 * <p>A lease counts as lost once it is known to be gone (a renewal or release found another owner or no live row,
 * or the watchdog could not renew it in time) and also once its TTL has run out on this machine's monotonic clock,
 * measured from the moment the acquire or last renew statement was sent. The second rule errs on the safe side: a
 * holder never believes in a lease longer than the database could have kept it. Releasing a lease sends its release
 * statement unless a statement already found it gone: one that ran out on this machine's clock may still be live in
 * the database, and the statement is owner-checked.
 *
 * <p>One concept, hence its length: the state of one acquisition as its holder sees it (token, expiry, loss, release)
 * and as the watchdog renews it (its {@link Renewable} side), which must change together under the lease's own lock.
 */
public final class Lease implements AutoCloseable {

    private final LeaseHost host;

    private final String label;

    private final Duration minHold;

    private final long acquiredAtNanos;

    private final List<LeaseLostListener> lostListeners = new CopyOnWriteArrayList<>();

    private final AtomicBoolean lost = new AtomicBoolean();

    private final AtomicBoolean released = new AtomicBoolean();

    private final Renewal renewal = new Renewal();

    /**
     * Orders the renewals of this lease, manual and the watchdog's, one at a time, so that what the holder believes is
     * what the database did last. The release does not wait for it: it is owner-checked, and a renewal that confirms
     * a released lease releases it again.
     */
    private final ReentrantLock operations = new ReentrantLock();

    /** Whether a statement found the lease gone, so that its release has nothing to give back. */
    private volatile boolean gone;

    private volatile LockRecord record;

    /** The TTL last sent to the database: the original one, or a manual renewal's. */
    private volatile Duration ttl;

    private volatile long renewedAtNanos;

    private volatile @Nullable String lostReason;

    Lease(LeaseHost host, LockRecord record, Duration ttl, Duration minHold, long sentAtNanos, String label) {
        this.host = host;
        this.record = record;
        this.ttl = ttl;
        this.minHold = minHold;
        this.label = label;
        this.renewedAtNanos = sentAtNanos;
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

    /** @return the lease length of the last acquire or renewal: what the watchdog renews with */
    public Duration ttl() {
        return ttl;
    }

    /** @return how long after acquisition the lock stays held at least, even when released sooner */
    public Duration minHold() {
        return minHold;
    }

    /** @return the label observers and metrics record this lock under: a resource template, or a caller's name */
    public String metricsLabel() {
        return label;
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
     * Extends the lease now to {@code newTtl} from now (database time); the watchdog renews with it from then on.
     *
     * @param newTtl the new lease length
     * @return {@link LockResult#APPLIED}, or why not; when refused, the lease is marked lost
     * @throws IllegalStateException when the lease was already released
     */
    public LockResult renew(Duration newTtl) {
        RenewResult result;
        operations.lock();
        try {
            if (released.get()) {
                throw new IllegalStateException("Cannot renew the released lease on '" + resource() + "'");
            }
            long sentAt = System.nanoTime();
            try {
                result = host.repository().renew(resource(), owner(), newTtl);
            }
            catch (RuntimeException ex) {
                host.renewalFailed(this, ex);
                throw ex;
            }
            LockRecord renewed = result.record();
            if (renewed != null) {
                renewal.renewed(renewed, sentAt, newTtl);
            }
        }
        finally {
            operations.unlock();
        }
        if (!result.status().isApplied()) {
            gone = true;
            markLost("renewal found the lease " + describe(result.status()));
        }
        else if (released.get()) {
            releaseAgain();
        }
        return result.status();
    }

    /**
     * Hands the lease to the watchdog, which renews it at a fraction of its TTL until it is released, lost, or
     * {@code maxHold} has passed. Leases of {@link LockManager#acquire(LockRequest)} and
     * {@link LockManager#runLocked} are kept alive already, as their request says.
     *
     * @param maxHold how long the watchdog keeps renewing at most, counted from now
     * @return this lease
     * @throws IllegalStateException when the lease was already released
     */
    public Lease keepAlive(Duration maxHold) {
        LockArguments.requireDuration("maxHold", maxHold, LockArguments.MIN_TTL, LockRequest.MAX_DURATION);
        if (released.get()) {
            throw new IllegalStateException("Cannot keep a released lease alive: " + this);
        }
        host.keepAlive(renewal, maxHold);
        if (released.get()) {
            // Released while this call ran: the release may have missed the new watch, so end it here.
            host.stopKeepingAlive(renewal);
        }
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
     * Releases the lock, keeping it held until {@link #minHold()} after acquisition if that is still ahead. The
     * watchdog stops renewing it first, without waiting for a renewal in flight. A lease a statement already found
     * gone is released at once, without a statement: there is nothing of this holder's left to give back. A lease
     * that ran out on this machine's clock is still released in the database, where it may be live, and counts as
     * lost.
     *
     * @return {@link LockResult#APPLIED}, or why not; {@link LockResult#NOT_FOUND} when called again or when the lease
     *     was found gone before
     */
    public LockResult release() {
        if (!released.compareAndSet(false, true)) {
            return LockResult.NOT_FOUND;
        }
        host.stopKeepingAlive(renewal);
        boolean ranOut = System.nanoTime() - localDeadlineNanos() >= 0;
        if (gone) {
            host.released(this, Duration.ofNanos(System.nanoTime() - acquiredAtNanos));
            return LockResult.NOT_FOUND;
        }
        LockResult result;
        try {
            host.releasing(this);
            result = host.repository().release(resource(), owner(), minHold);
        }
        finally {
            host.released(this, Duration.ofNanos(System.nanoTime() - acquiredAtNanos));
        }
        if (result != LockResult.APPLIED) {
            gone = true;
            markLost("release found the lease " + describe(result));
        }
        else if (ranOut) {
            markLost("its TTL of " + ttl + " ran out without a renewal");
        }
        return result;
    }

    /**
     * Sends the release once more, after a renewal that may have reached the database after the release: owner-checked,
     * so it changes nothing when the release came last.
     */
    private void releaseAgain() {
        try {
            host.repository().release(resource(), owner(), minHold);
        }
        catch (RuntimeException ex) {
            // The lease then runs out by its TTL, as one whose holder died does.
            host.renewalFailed(this, ex);
        }
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

    LeaseHost host() {
        return host;
    }

    private long localDeadlineNanos() {
        return renewedAtNanos + ttl.toNanos();
    }

    private void markLost(String reason) {
        if (lost.compareAndSet(false, true)) {
            lostReason = reason;
            host.lost(this, reason, lostListeners);
        }
    }

    private static String describe(LockResult refusal) {
        return refusal == LockResult.FORBIDDEN ? "held by another owner" : "expired";
    }

    @Override
    public String toString() {
        return "Lease[resource=" + resource() + ", owner=" + OwnerFingerprint.of(owner()) + ", token=" + token() + ", expiresAt="
                + expiresAt() + (lost.get() ? ", lost" : "") + (released.get() ? ", released" : "") + "]";
    }

    /** What the watchdog sees of this lease. */
    private final class Renewal implements Renewable {

        @Override
        public LeaseKey key() {
            return record.key();
        }

        @Override
        public Duration ttl() {
            return ttl;
        }

        @Override
        public long renewedAtNanos() {
            return renewedAtNanos;
        }

        @Override
        public long localDeadlineNanos() {
            return Lease.this.localDeadlineNanos();
        }

        @Override
        public boolean isReleased() {
            return released.get();
        }

        @Override
        public boolean tryLockForRenewal() {
            return operations.tryLock();
        }

        @Override
        public void unlockAfterRenewal() {
            operations.unlock();
        }

        @Override
        public void renewed(LockRecord renewedRecord, long sentAtNanos, Duration sentTtl) {
            if (released.get()) {
                releaseAgain();
                return;
            }
            record = renewedRecord;
            renewedAtNanos = sentAtNanos;
            ttl = sentTtl;
            host.renewed(Lease.this);
        }

        @Override
        public void renewalFailed(RuntimeException error) {
            host.renewalFailed(Lease.this, error);
        }

        @Override
        public void lost(String reason) {
            if (!released.get()) {
                markLost(reason);
            }
        }

        @Override
        public void gone(String reason) {
            if (!released.get()) {
                gone = true;
                markLost(reason);
            }
        }

        @Override
        public String toString() {
            return Lease.this.toString();
        }
    }
}
