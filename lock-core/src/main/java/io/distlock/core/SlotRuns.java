package io.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The once-per-slot policy on top of {@link LockManager#runLocked}: under the job's lock, claim the slot (only if it
 * is later than the job's last claimed slot, or a crashed run of it may run again, and only once its time has come
 * by the store's clock), tell crashed and missed slots and a replica whose clock runs ahead or behind, run the work,
 * and record how it ended. With {@link MissedSlotPolicy#CATCH_UP}, the latest missed slot is claimed first, as a slot
 * of its own, and run once.
 */
final class SlotRuns {

    private static final Logger logger = LoggerFactory.getLogger(SlotRuns.class);

    private final LockManager manager;

    private final LockEvents events;

    private final WarningThrottle tooEarlyWarnings = new WarningThrottle(Duration.ofMinutes(1));

    SlotRuns(LockManager manager, LockEvents events) {
        this.manager = manager;
        this.events = events;
    }

    <T, E extends Throwable> SlotOutcome<T> run(SlotRequest request, LockedWork<T, E> work) throws E {
        SlotExecution enclosing = SlotExecution.current().orElse(null);
        if (enclosing != null && enclosing.job().equals(request.job())) {
            throw new IllegalStateException("runOncePerSlot for slot " + request.slot() + " of job '" + request.job()
                    + "' was called inside the run of its slot " + enclosing.slot() + ": a run of a job cannot claim "
                    + "another slot of the same job; call it after the run, or give the inner work a job of its own");
        }
        LockOutcome<SlotOutcome<T>> locked = manager.runLocked(request.lockRequest(),
                lease -> runClaimed(request, lease, work));
        SlotOutcome<T> outcome = locked.value();
        if (outcome == null) {
            logger.debug("Skipped slot {} of job '{}': another replica holds the job's lock", request.slot(),
                    request.job());
            events.slotSkipped(request.label(), request.slot(), SlotOutcome.Status.LOCKED);
            return SlotOutcome.skipped(SlotOutcome.Status.LOCKED, request.slot());
        }
        if (locked.status() == LockOutcome.Status.LOST && outcome.status() == SlotOutcome.Status.RAN) {
            return new SlotOutcome<>(SlotOutcome.Status.LOST, outcome.slot(), outcome.value(), outcome.missed(),
                    outcome.rerun(), locked.loss());
        }
        return outcome;
    }

    private <T, E extends Throwable> SlotOutcome<T> runClaimed(SlotRequest request, Lease lease, LockedWork<T, E> work)
            throws E {
        String job = request.job();
        Instant slot = request.slot();
        SlotStore store = SlotStore.of(manager.repository());
        MissedSlots caughtUp = request.onMissed() == MissedSlotPolicy.CATCH_UP ? catchUp(request, lease, store, work)
                : MissedSlots.NONE;
        SlotClaim claim = store.claimSlot(job, lease.owner(), slot, request.onCrash() == CrashPolicy.AT_LEAST_ONCE);
        if (claim.status() != SlotClaim.Status.CLAIMED) {
            return refused(request, claim);
        }
        warnIfLate(request, claim.storeTime());
        tellCrashed(request, slot, claim);
        Instant previous = claim.previousSlot();
        SlotSchedule schedule = request.schedule();
        MissedSlots missed = claim.run() > 1 || schedule == null || previous == null || !previous.isBefore(slot)
                ? MissedSlots.NONE : MissedSlots.between(schedule, previous, slot);
        if (!missed.isEmpty()) {
            logger.warn("Job '{}' missed {} before slot {}{}", job, missed, slot,
                    request.onMissed() == MissedSlotPolicy.CATCH_UP ? "; not caught up: the latest missed slot could "
                            + "not be claimed before this one" : "");
            events.slotsMissed(request.label(), missed);
        }
        T value = runAndFinish(request, slot, new SlotExecution(job, slot, claim.run(), false, lease), work);
        return new SlotOutcome<>(SlotOutcome.Status.RAN, slot, value, caughtUp.isEmpty() ? missed : caughtUp,
                claim.run() > 1, null);
    }

    /**
     * Catches up missed slots before the slot at hand: the latest slot missed since the job's last claimed one is
     * claimed as a slot of its own and run, so that no other replica can claim it or run it again, and the slot
     * history shows it. The last claimed slot is read from the history under the job's lock; the claim of the
     * catch-up slot is the same compare-and-set as every claim, so a history that moved meanwhile makes it claim
     * nothing.
     *
     * @return the slots missed before the slot at hand, the caught-up one included; none when nothing was caught up
     */
    private <T, E extends Throwable> MissedSlots catchUp(SlotRequest request, Lease lease, SlotStore store,
            LockedWork<T, E> work) throws E {
        SlotSchedule schedule = request.schedule();
        if (schedule == null || request.slot().isAfter(lease.acquiredAt().plus(SlotRequest.EARLY_TOLERANCE))) {
            // The slot's time has not come by the store's clock (as the lease was taken): its claim is refused, and
            // nothing is caught up for it.
            return MissedSlots.NONE;
        }
        List<SlotRun> last = store.recentSlotRuns(request.job(), 1);
        if (last.isEmpty() || !last.get(0).slot().isBefore(request.slot())) {
            return MissedSlots.NONE;
        }
        MissedSlots missed = MissedSlots.between(schedule, last.get(0).slot(), request.slot());
        if (missed.isEmpty()) {
            return MissedSlots.NONE;
        }
        Instant latest = missed.latest();
        SlotClaim claim = store.claimSlot(request.job(), lease.owner(), latest, false);
        if (claim.status() != SlotClaim.Status.CLAIMED) {
            logger.debug("Did not catch up slot {} of job '{}': its claim found {}", latest, request.job(),
                    claim.status());
            return MissedSlots.NONE;
        }
        tellCrashed(request, latest, claim);
        Instant previous = claim.previousSlot();
        if (previous != null && previous.isBefore(latest)) {
            missed = MissedSlots.between(schedule, previous, request.slot());
        }
        logger.warn("Job '{}' missed {} before slot {}; running once for the latest to catch up", request.job(),
                missed, request.slot());
        events.slotsMissed(request.label(), missed);
        runAndFinish(request, latest, new SlotExecution(request.job(), latest, 1, true, lease), work);
        return missed;
    }

    /** Runs the work of a claimed slot and records how it ended. */
    private <T, E extends Throwable> T runAndFinish(SlotRequest request, Instant slot, SlotExecution execution,
            LockedWork<T, E> work) throws E {
        T value;
        try {
            value = execution.bound(work);
        }
        catch (Throwable ex) {
            finish(request, slot, execution.lease(), SlotRunOutcome.FAILED);
            throw ex;
        }
        finish(request, slot, execution.lease(), execution.lease().isLost() ? SlotRunOutcome.LOST
                : SlotRunOutcome.SUCCEEDED);
        return value;
    }

    /** Tells a slot claimed before whose run never finished, found by the claim of {@code slot}. */
    private void tellCrashed(SlotRequest request, Instant slot, SlotClaim claim) {
        Instant previous = claim.previousSlot();
        if (!claim.previousUnfinished() || previous == null) {
            return;
        }
        if (claim.run() > 1) {
            logger.warn("Running slot {} of job '{}' again: its first run (token {}) never finished; its holder "
                    + "stopped or lost its lease mid-run (a crash, a pause, or a run longer than maxHold)", slot,
                    request.job(), claim.previousToken());
        }
        else {
            logger.warn("Slot {} of job '{}' never finished: its holder (token {}) stopped or lost its lease "
                    + "mid-run (a crash, a pause, or a run longer than maxHold); recorded as crashed and not run "
                    + "again", previous, request.job(), claim.previousToken());
        }
        events.slotCrashed(request.label(), previous);
    }

    private <T> SlotOutcome<T> refused(SlotRequest request, SlotClaim claim) {
        String job = request.job();
        Instant slot = request.slot();
        SlotOutcome.Status status = switch (claim.status()) {
            case NOT_LATER -> SlotOutcome.Status.ALREADY_CLAIMED;
            case TOO_EARLY -> SlotOutcome.Status.TOO_EARLY;
            default -> SlotOutcome.Status.LOCKED;
        };
        if (status == SlotOutcome.Status.TOO_EARLY) {
            Instant storeTime = java.util.Objects.requireNonNull(claim.storeTime());
            Duration ahead = Duration.between(storeTime, slot);
            if (tooEarlyWarnings.allow(job)) {
                logger.warn("Refused slot {} of job '{}': it is {} ahead of the store's clock ({}), more than the {} "
                        + "a slot may be claimed early, so this replica's clock (or its scheduler's) runs ahead; the "
                        + "slot is left to replicas whose clocks agree with the store's{}", slot, job, ahead,
                        storeTime, SlotRequest.EARLY_TOLERANCE, tooEarlyWarnings.suppressedNote(job));
            }
            events.slotTooEarly(request.label(), slot, ahead);
            return SlotOutcome.skipped(status, slot);
        }
        logger.debug("Skipped slot {} of job '{}': {}", slot, job, status == SlotOutcome.Status.ALREADY_CLAIMED
                ? "it is not later than the job's last claimed slot, so it ran elsewhere"
                : "the job's lease was lost before the slot was claimed");
        events.slotSkipped(request.label(), slot, status);
        return SlotOutcome.skipped(status, slot);
    }

    /** Tells a slot claimed when the store's clock is already past the next slot: this replica runs behind. */
    private static void warnIfLate(SlotRequest request, @Nullable Instant storeTime) {
        SlotSchedule schedule = request.schedule();
        if (storeTime == null || schedule == null) {
            return;
        }
        Instant next = schedule.next(request.slot());
        if (next != null && next.plus(SlotRequest.EARLY_TOLERANCE).isBefore(storeTime)) {
            logger.warn("Running slot {} of job '{}' late: the store's clock ({}) is already past the next slot ({}); "
                    + "this replica's clock (or its scheduler's) runs behind, or its scheduler was busy", request.slot(),
                    request.job(), storeTime, next);
        }
    }

    private void finish(SlotRequest request, Instant slot, Lease lease, SlotRunOutcome outcome) {
        try {
            SlotStore.of(manager.repository()).finishSlot(request.job(), slot, lease.token(), outcome);
        }
        catch (RuntimeException ex) {
            logger.warn("Could not record that slot {} of job '{}' ended {}; a later claim will count it as crashed",
                    slot, request.job(), outcome, ex);
        }
        events.slotRan(request.label(), slot, outcome);
    }
}
