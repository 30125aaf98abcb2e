package io.distlock.core;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The lock operations every lock store implements, each decided atomically by the store with an explicit owner.
 * Implementations run every statement outside the caller's transaction and compare expiry with the store's clock
 * unless configured otherwise. Every operation checks its arguments with the store's {@link #arguments()} before
 * anything reaches the store, so that bad input fails with a message naming the value at fault and changes nothing.
 *
 * <p>What else a store can do it implements as optional capabilities, found with {@link #capability}:
 * {@link BatchRenewal}, {@link ForcedRelease}, {@link SlotStore}, {@link ReleaseFeeds}, {@link RenewalCapacity} and
 * {@link SchemaVerification}. A wrapper such as {@link DelegatingLockRepository} answers its delegate's.
 *
 * <p>A store bounds each operation in time. One that ran out of time, or met a deadlock, throws
 * {@link org.springframework.dao.QueryTimeoutException} or
 * {@link org.springframework.dao.PessimisticLockingFailureException}: the watchdog then renews the leases of the
 * batch one by one, so that one stuck lease does not cost the others theirs. An {@link #acquire} that runs out of
 * time answers "not acquired" when the store knows nothing was written.
 */
public interface LockRepository {

    /**
     * Takes the lock if it is free, expired, or already held by {@code owner} (then it is a renewal that keeps the
     * token). Never blocks on another owner.
     *
     * @param resource the resource to lock
     * @param owner the acquisition's owner token
     * @param ttl how long the lease lasts unless renewed
     * @return the record when the caller now holds the lock; empty when another owner holds a live lock
     */
    Optional<LockRecord> acquire(String resource, String owner, Duration ttl);

    /**
     * Extends a live lease held by {@code owner} to {@code ttl} from now.
     *
     * @param resource the locked resource
     * @param owner the owner token that holds it
     * @param ttl the new lease length, counted from now
     * @return the record with its new expiry, or why it was not renewed
     */
    RenewResult renew(String resource, String owner, Duration ttl);

    /**
     * Gives up a lock at once.
     *
     * @param resource the locked resource
     * @param owner the owner token that holds it
     * @return {@link LockResult#APPLIED}, or why nothing changed
     */
    default LockResult release(String resource, String owner) {
        return release(resource, owner, Duration.ZERO);
    }

    /**
     * Gives up a lock but keeps it held until {@code minHold} after it was acquired, if that is still ahead: the
     * guard against a replica with a skewed clock repeating a short job right after it ran elsewhere.
     *
     * @param resource the locked resource
     * @param owner the owner token that holds it
     * @param minHold how long after acquisition the lock stays held at least
     * @return {@link LockResult#APPLIED}, or why nothing changed
     */
    LockResult release(String resource, String owner, Duration minHold);

    /**
     * Reads the live lock on a resource. An expired lock counts as absent.
     *
     * @param resource the resource to look up
     * @return the live lock, or empty
     */
    Optional<LockRecord> find(String resource);

    /**
     * Lists every live lock, ordered by resource.
     *
     * @return the unexpired locks
     */
    List<LockRecord> findAll();

    /**
     * Deletes rows whose lease ended more than {@code retention} ago. Fencing tokens stay monotonic because they come
     * from a sequence and a takeover draws its token under the row lock; the retention only has to outlast any single
     * acquire statement that drew a token before the row was deleted. A store whose locks expire by themselves
     * deletes nothing.
     *
     * @param retention how long an expired row is kept, at least {@link LockArguments#MIN_RETENTION}
     * @return how many rows were deleted
     */
    int deleteExpired(Duration retention);

    /**
     * The rules this store checks the arguments of every operation by: the one place they are written, which every
     * store and every wrapper goes through.
     *
     * @return the rules, with the store's longest lease; {@link LockArguments#DEFAULT} unless the store says otherwise
     */
    default LockArguments arguments() {
        return LockArguments.DEFAULT;
    }

    /**
     * An optional capability of this store: one of the interfaces beside this one that a store implements as it can.
     *
     * @param type the capability, such as {@link SlotStore}
     * @param <C> the capability's type
     * @return the capability, or empty when the store does not have it
     */
    default <C> Optional<C> capability(Class<C> type) {
        return type.isInstance(this) ? Optional.of(type.cast(this)) : Optional.empty();
    }
}
