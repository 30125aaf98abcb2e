package io.distlock.spring.slot;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import io.distlock.core.CrashPolicy;
import io.distlock.core.SlotOutcome;
import io.distlock.core.SlotRequest;
import io.distlock.core.SlotSchedule;
import org.jspecify.annotations.Nullable;

/**
 * What must happen to the slots of one job, stated without the stores: the reference the slot properties check the
 * real claim code against. A slot is claimed only when no live lease holds the job, only once its time has come by
 * the store's clock (up to {@link SlotRequest#EARLY_TOLERANCE} early), and only when it is later than the last
 * claimed slot — or, at least once, when it is that slot and its run crashed and ran only once. Every fire time
 * strictly between two claimed slots is told missed, at the stores' millisecond precision.
 */
final class SlotModel {

    private final SlotSchedule schedule;

    private final CrashPolicy onCrash;

    private @Nullable Instant lastSlot;

    private int lastRuns;

    private boolean lastFinished = true;

    private @Nullable Instant heldUntil;

    SlotModel(SlotSchedule schedule, CrashPolicy onCrash) {
        this.schedule = schedule;
        this.onCrash = onCrash;
    }

    /**
     * What a replica's claim of a slot must give at a moment of the store's clock.
     *
     * @param slot the slot the replica fired for
     * @param storeTime the store's clock
     * @return the expected outcome
     */
    Expected expect(Instant slot, Instant storeTime) {
        Instant at = slot.truncatedTo(ChronoUnit.MILLIS);
        if (heldUntil != null && storeTime.isBefore(heldUntil)) {
            return new Expected(SlotOutcome.Status.LOCKED, 0, 0);
        }
        if (at.isAfter(storeTime.plus(SlotRequest.EARLY_TOLERANCE))) {
            return new Expected(SlotOutcome.Status.TOO_EARLY, 0, 0);
        }
        if (lastSlot == null || at.isAfter(lastSlot)) {
            return new Expected(SlotOutcome.Status.RAN, 1, lastSlot == null ? 0 : firesBetween(lastSlot, at));
        }
        if (at.equals(lastSlot) && onCrash == CrashPolicy.AT_LEAST_ONCE && !lastFinished && lastRuns < 2) {
            return new Expected(SlotOutcome.Status.RAN, 2, 0);
        }
        return new Expected(SlotOutcome.Status.ALREADY_CLAIMED, 0, 0);
    }

    /**
     * Records a claim the real code made.
     *
     * @param slot the claimed slot
     * @param run its run number
     * @param crashedUntil when the run's holder crashed, when its lease runs out; {@code null} when it finished
     */
    void claimed(Instant slot, int run, @Nullable Instant crashedUntil) {
        lastSlot = slot.truncatedTo(ChronoUnit.MILLIS);
        lastRuns = run;
        lastFinished = crashedUntil == null;
        heldUntil = crashedUntil;
    }

    /** The fire times strictly between two slots, one by one, each at millisecond precision. */
    long firesBetween(Instant previous, Instant slot) {
        long count = 0;
        Instant last = previous;
        for (Instant fire = schedule.next(previous); fire != null; fire = schedule.next(fire)) {
            Instant at = fire.truncatedTo(ChronoUnit.MILLIS);
            if (!at.isBefore(slot)) {
                return count;
            }
            if (at.isAfter(last)) {
                count++;
                last = at;
            }
        }
        return count;
    }

    /**
     * What a claim must give.
     *
     * @param status the outcome's status
     * @param run the run number when it ran
     * @param missed how many slots it must tell missed
     */
    record Expected(SlotOutcome.Status status, int run, long missed) {
    }

    /** How long a fire-to-fire gap of the schedule is around an instant: the unit the scenarios move time by. */
    static Duration gapAround(SlotSchedule schedule, Instant at) {
        Instant next = schedule.next(at);
        Instant after = next != null ? schedule.next(next) : null;
        return next != null && after != null ? Duration.between(next, after) : Duration.ofMinutes(1);
    }
}
