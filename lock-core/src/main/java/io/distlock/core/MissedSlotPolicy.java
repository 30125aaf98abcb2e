package io.distlock.core;

/**
 * What happens when slots were missed: no replica ran them (all down, or all still busy with an earlier run). Missed
 * slots are found when the next slot is claimed, and always logged at WARN and counted.
 */
public enum MissedSlotPolicy {

    /** Run only the slot at hand. The default: a schedule says when to run, not how often to catch up. */
    SKIP,

    /**
     * Run once more for the latest missed slot before the slot at hand: one catch-up run, never one per slot. The
     * catch-up run claims the latest missed slot as a slot of its own, under the job's lock, so no other replica runs
     * it too, and the slot history records it ({@link SlotExecution#catchUp()} tells the work).
     */
    CATCH_UP
}
