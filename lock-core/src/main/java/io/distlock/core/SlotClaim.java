package io.distlock.core;

import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a slot claim decided ({@link LockRepository#claimSlot}), and what it found of the slot claimed before.
 *
 * @param status whether the slot was claimed
 * @param run the run number of the claimed slot: 1, or 2 for a re-run after a crash; 0 when not claimed
 * @param previousSlot the slot claimed before this claim, or {@code null} for a job's first slot
 * @param previousUnfinished whether that slot's run had not finished (its holder stopped mid-run)
 * @param previousToken the fencing token of that run, or 0
 */
public record SlotClaim(Status status, int run, @Nullable Instant previousSlot, boolean previousUnfinished,
        long previousToken) {

    public SlotClaim {
        Objects.requireNonNull(status, "status");
    }

    /**
     * A refusal that found nothing to tell.
     *
     * @param status why the slot was not claimed
     * @return the claim
     */
    public static SlotClaim refused(Status status) {
        return new SlotClaim(status, 0, null, false, 0);
    }

    /** What a slot claim decided. */
    public enum Status {

        /** The slot is the caller's to run. */
        CLAIMED,

        /** The slot is not later than the job's last claimed slot (and not one to run again): it ran elsewhere. */
        NOT_LATER,

        /** The caller does not hold the job's lock (any more): nothing was claimed. */
        NOT_HELD
    }
}
