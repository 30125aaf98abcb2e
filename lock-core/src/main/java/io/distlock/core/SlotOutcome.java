package io.distlock.core;

import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * How a {@link LockManager#runOncePerSlot} call ended.
 *
 * @param status how it ended
 * @param slot the slot it was for
 * @param value what the work returned (the slot's run, not a catch-up run); {@code null} unless it ran
 * @param missed the slots found missed since the previous claimed slot ({@link MissedSlots#NONE} unless claimed)
 * @param rerun whether the run was a re-run of a slot whose first run crashed
 * @param loss why the lease is known lost, exactly when {@code status} is {@link Status#LOST}
 * @param <T> what the work returns
 */
public record SlotOutcome<T>(Status status, Instant slot, @Nullable T value, MissedSlots missed, boolean rerun,
        @Nullable LockLostException loss) {

    public SlotOutcome {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(slot, "slot");
        Objects.requireNonNull(missed, "missed");
    }

    static <T> SlotOutcome<T> skipped(Status status, Instant slot) {
        return new SlotOutcome<>(status, slot, null, MissedSlots.NONE, false, null);
    }

    /**
     * Whether the work ran for the slot.
     *
     * @return {@code true} for {@link Status#RAN} and {@link Status#LOST}
     */
    public boolean ran() {
        return status == Status.RAN || status == Status.LOST;
    }

    /** How a {@link LockManager#runOncePerSlot} call ended. */
    public enum Status {

        /** The slot was claimed here and its work ran with the lease held throughout. */
        RAN,

        /** Another replica held the job's lock (for the whole wait): the slot was not claimed here. */
        LOCKED,

        /** The slot was already claimed (it is not later than the job's last claimed slot): it ran elsewhere. */
        ALREADY_CLAIMED,

        /**
         * The slot's time has not come by the store's clock: this replica's clock (or its scheduler's) runs ahead
         * of the store's by more than {@link SlotRequest#EARLY_TOLERANCE}. Nothing was claimed; the slot is left to
         * the replicas whose clocks agree with the store's.
         */
        TOO_EARLY,

        /** The slot's work ran, but its lease was found lost before the end. */
        LOST
    }
}
