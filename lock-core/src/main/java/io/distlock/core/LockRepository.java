package io.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * The lock table's operations, each decided atomically by the database with an explicit owner.
 * Implementations run every statement outside the caller's transaction and compare expiry with the database clock
 * unless configured otherwise. Arguments are checked with {@link LockArguments} before any statement runs.
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
     * Extends many live leases in few statements: what the watchdog calls once per round.
     *
     * @param leases the acquisitions to renew
     * @param ttl the new lease length, counted from now
     * @return the new expiry of every lease that was renewed. A lease missing from the map was not renewed: it is
     *     gone, or its row was held locked by another session and passed over, not waited for (the JDBC store does
     *     so); the watchdog renews each missing lease with {@link #renew} before it counts it lost
     */
    Map<LeaseKey, LockRecord> renewAll(Collection<LeaseKey> leases, Duration ttl);

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
     * Ends a live lock whoever holds it, as an operator's forced release: only while its fencing token is still
     * {@code token}, the acquisition the operator saw, so that a lock that changed hands since is left alone. The lock
     * is free at once, whatever minimum hold it was taken with; the next holder draws a larger token, the old owner
     * too should it acquire again, and the old holder finds its lease gone at its next renewal or release (its
     * watchdog tells it lost).
     *
     * <p>The default reads the lock and releases it with its owner: two statements, each decided on its own, so a
     * lock that changed hands between them is refused, never released; an owner that acquires again may then keep
     * its token. The built-in stores decide in one statement or script and draw a new token for every next holder.
     *
     * @param resource the locked resource
     * @param token the fencing token of the acquisition to end
     * @return {@link LockResult#APPLIED}; {@link LockResult#NOT_FOUND} when no live lock exists;
     *     {@link LockResult#FORBIDDEN} when the live lock has another token
     * @since 0.1.0
     */
    default LockResult forceRelease(String resource, long token) {
        LockArguments.requireResource(resource);
        Optional<LockRecord> live = find(resource);
        if (live.isEmpty()) {
            return LockResult.NOT_FOUND;
        }
        if (live.get().token() != token) {
            return LockResult.FORBIDDEN;
        }
        return release(resource, live.get().owner());
    }

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
     * acquire statement that drew a token before the row was deleted.
     *
     * @param retention how long an expired row is kept, at least one minute
     * @return how many rows were deleted
     */
    int deleteExpired(Duration retention);

    /**
     * Claims a scheduled slot of a job whose lock {@code owner} holds: in one decision, only if the slot is later than
     * the job's last claimed slot — or, with {@code rerunUnfinished}, the same slot whose run never finished, claimed
     * by an earlier token, and not run again yet — and only if its time has come by the store's clock (it is not
     * later than the store's time plus {@link SlotRequest#EARLY_TOLERANCE}, else {@link SlotClaim.Status#TOO_EARLY}).
     * A stale or foreign owner claims nothing. The claim and what it records are one transaction: a claim either
     * happened with its history entry, or not at all.
     *
     * @param job the job: the resource of its lock
     * @param owner the owner token that holds the job's lock
     * @param slot the scheduled fire time to claim; stores keep milliseconds, and a finer part is dropped
     * @param rerunUnfinished whether an unfinished run of the same slot may be run again (at-least-once)
     * @return what the claim decided, and what it found of the slot claimed before
     * @throws UnsupportedOperationException when the store keeps no slots
     */
    default SlotClaim claimSlot(String job, String owner, Instant slot, boolean rerunUnfinished) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not keep scheduled slots");
    }

    /**
     * Records how the run of a claimed slot ended. Only the run that claimed it (its fencing token) changes anything.
     *
     * @param job the job
     * @param slot the claimed slot
     * @param token the fencing token of the run's lease
     * @param outcome how the run ended
     * @throws UnsupportedOperationException when the store keeps no slots
     */
    default void finishSlot(String job, Instant slot, long token, SlotRunOutcome outcome) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not keep scheduled slots");
    }

    /**
     * Checks that the store can keep scheduled slots (for a lock table: its slot columns and slot table exist),
     * failing fast with a message that says how to add them.
     *
     * @throws UnsupportedOperationException when the store keeps no slots
     * @throws IllegalStateException when the store's schema lacks them
     */
    default void verifySlots() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not keep scheduled slots");
    }

    /**
     * The latest slot runs, newest first.
     *
     * @param job the job, or {@code null} for every job
     * @param limit how many runs at most (per job when {@code job} is {@code null})
     * @return the runs; empty when the store keeps no slots
     */
    default List<SlotRun> recentSlotRuns(@Nullable String job, int limit) {
        return List.of();
    }

    /**
     * Told by the watchdog whether it keeps leases alive, so that a store can hold back what renewals need — such as a
     * connection of its own — while leases are held, and give it back when none are: renewals must not depend on the
     * application winning a race for its own connection pool. Called with {@code true} in the thread of every lease
     * to be kept alive, before its guarded work runs (so reserving may wait for the capacity, and a store replaces
     * then what it lost since — a reserved connection that broke — but must return at once when it still holds what
     * it reserved), and with {@code false} on the watchdog's thread once no lease is kept alive, never concurrently by
     * one holder. Several watchdogs may share a store, each a holder of its own: what is reserved stays while any
     * holder wants it. A store does nothing by default.
     *
     * @param holder who asks: the same object for every call of one watchdog
     * @param reserve {@code true} while at least one of the holder's leases is kept alive
     */
    default void reserveForRenewals(Object holder, boolean reserve) {
    }

    /**
     * Opens a feed that tells a {@link LockManager} of releases of the locks its threads wait for, made by any
     * process, so that its waiters need not wait for their next poll. Each manager opens one when it is built and
     * closes it when it is closed. A store that cannot tell of releases answers {@link ReleaseFeed#NONE}, the default.
     *
     * @param listener told the resource of every release the feed hears of, for a watched resource, on a thread of
     *     the feed's; must return quickly
     * @return the feed
     */
    default ReleaseFeed openReleaseFeed(Consumer<String> listener) {
        return ReleaseFeed.NONE;
    }

    /**
     * Checks that the lock table exists and has the expected columns, failing fast with a message that says how to
     * create it.
     */
    default void verifySchema() {
    }
}
