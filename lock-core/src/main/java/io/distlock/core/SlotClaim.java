package io.distlock.core;

import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a slot claim decided ({@link SlotStore#claimSlot}), and what it found of the slot claimed before.
 *
 * @param status whether the slot was claimed
 * @param run the run number of the claimed slot: 1, or 2 for a re-run after a crash; 0 when not claimed
 * @param previousSlot the slot claimed before this claim, or {@code null} for a job's first slot
 * @param previousUnfinished whether that slot's run had not finished (its holder stopped mid-run)
 * @param previousToken the fencing token of that run, or 0
 * @param storeTime the store's clock when it decided, or {@code null} when the store did not read it (a refusal
 *     for a lock not held)
 */
public record SlotClaim(Status status, int run, @Nullable Instant previousSlot, boolean previousUnfinished,
        long previousToken, @Nullable Instant storeTime) {

    public SlotClaim {
        Objects.requireNonNull(status, "status");
        if (status == Status.TOO_EARLY && storeTime == null) {
            throw new IllegalArgumentException("A claim refused as too early says the store's time");
        }
    }

    /**
     * A refusal that found nothing to tell.
     *
     * @param status why the slot was not claimed
     * @param storeTime the store's clock, or {@code null} when not read
     * @return the claim
     */
    public static SlotClaim refused(Status status, @Nullable Instant storeTime) {
        return new SlotClaim(status, 0, null, false, 0, storeTime);
    }

    /** What a slot claim decided. */
    public enum Status {

        /** The slot is the caller's to run. */
        CLAIMED,

        /** The slot is not later than the job's last claimed slot (and not one to run again): it ran elsewhere. */
        NOT_LATER,

        /**
         * The slot's time has not come by the store's clock: it is later than the store's time plus
         * {@link SlotRequest#EARLY_TOLERANCE}, so the caller's clock runs ahead. Nothing was claimed, so the slot
         * stays for replicas whose clocks agree with the store's.
         */
        TOO_EARLY,

        /** The caller does not hold the job's lock (any more): nothing was claimed. */
        NOT_HELD
    }
}
