package io.distlock.core;

import java.time.Duration;
import java.time.Instant;

/**
 * Told about every lock event of a {@link LockManager}: what metrics, tracing or audit logs hook into. Every method
 * has an empty default, so an observer implements only what it records. Observers run on the thread of the event
 * and must be quick; an exception they throw is logged and otherwise ignored.
 */
public interface LockObserver {

    /**
     * An acquire attempt took the lock.
     *
     * @param name the lock's label for metrics: an annotation's resource template, or a name the caller chose
     * @param lease the new lease
     * @param elapsed how long the attempt took, waiting included
     */
    default void acquired(String name, Lease lease, Duration elapsed) {
    }

    /**
     * An acquire attempt found the lock held by another owner (after waiting, if it waited).
     *
     * @param name the lock's label for metrics
     * @param resource the resource
     * @param elapsed how long the attempt took
     */
    default void held(String name, String resource, Duration elapsed) {
    }

    /**
     * An acquire attempt failed with an error, such as an unreachable database.
     *
     * @param name the lock's label for metrics
     * @param resource the resource
     * @param elapsed how long the attempt took
     * @param error what went wrong
     */
    default void acquireFailed(String name, String resource, Duration elapsed, RuntimeException error) {
    }

    /**
     * A lease was renewed, by the watchdog or by {@link Lease#renew}.
     *
     * @param lease the lease
     */
    default void renewed(Lease lease) {
    }

    /**
     * A renewal failed with an error; it is retried while the lease may still be alive.
     *
     * @param lease the lease
     * @param error what went wrong
     */
    default void renewalFailed(Lease lease, RuntimeException error) {
    }

    /**
     * A lease was found lost.
     *
     * @param lease the lease
     * @param reason why it is known to be lost
     */
    default void lost(Lease lease, String reason) {
    }

    /**
     * The holder released a lease.
     *
     * @param lease the lease
     * @param held how long it was held, from acquisition to release
     */
    default void released(Lease lease, Duration held) {
    }

    /**
     * A claimed slot's run ended.
     *
     * @param name the job's label for metrics
     * @param slot the slot
     * @param outcome how the run ended
     */
    default void slotRan(String name, Instant slot, SlotRunOutcome outcome) {
    }

    /**
     * A slot was not run here: the job's lock was held elsewhere, or the slot was already claimed.
     *
     * @param name the job's label for metrics
     * @param slot the slot
     * @param why {@link SlotOutcome.Status#LOCKED} or {@link SlotOutcome.Status#ALREADY_CLAIMED}
     */
    default void slotSkipped(String name, Instant slot, SlotOutcome.Status why) {
    }

    /**
     * Slots were missed: no replica ran them.
     *
     * @param name the job's label for metrics
     * @param missed how many, the first and the last
     */
    default void slotsMissed(String name, MissedSlots missed) {
    }

    /**
     * A slot was refused because its time has not come by the store's clock: this replica's clock runs ahead.
     *
     * @param name the job's label for metrics
     * @param slot the slot this replica fired for
     * @param ahead how far the slot is ahead of the store's clock
     */
    default void slotTooEarly(String name, Instant slot, Duration ahead) {
    }

    /**
     * A slot's run was found never to have finished: its holder stopped mid-run.
     *
     * @param name the job's label for metrics
     * @param slot the crashed slot
     */
    default void slotCrashed(String name, Instant slot) {
    }
}
