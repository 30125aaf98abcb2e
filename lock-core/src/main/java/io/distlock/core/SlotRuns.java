package io.distlock.core;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The once-per-slot policy on top of {@link LockManager#runLocked}: under the job's lock, claim the slot (only if it
 * is later than the job's last claimed slot, or a crashed run of it may run again), tell crashed and missed slots,
 * run the work, and record how it ended.
 */
final class SlotRuns {

    private static final Logger logger = LoggerFactory.getLogger(SlotRuns.class);

    /** The most missed slots named; a schedule that fires every second for a week down is counted, not listed. */
    private static final int MAX_MISSED_LISTED = 1000;

    private final LockManager manager;

    private final LockEvents events;

    SlotRuns(LockManager manager, LockEvents events) {
        this.manager = manager;
        this.events = events;
    }

    <T, E extends Throwable> SlotOutcome<T> run(SlotRequest request, LockedWork<T, E> work) throws E {
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
        SlotClaim claim = manager.repository().claimSlot(job, lease.owner(), slot,
                request.onCrash() == CrashPolicy.AT_LEAST_ONCE);
        if (claim.status() != SlotClaim.Status.CLAIMED) {
            logger.debug("Skipped slot {} of job '{}': {}", slot, job, claim.status() == SlotClaim.Status.NOT_LATER
                    ? "it is not later than the job's last claimed slot, so it ran elsewhere"
                    : "the job's lease was lost before the slot was claimed");
            SlotOutcome.Status status = claim.status() == SlotClaim.Status.NOT_LATER
                    ? SlotOutcome.Status.ALREADY_CLAIMED : SlotOutcome.Status.LOCKED;
            events.slotSkipped(request.label(), slot, status);
            return SlotOutcome.skipped(status, slot);
        }
        Instant previous = claim.previousSlot();
        if (claim.previousUnfinished() && previous != null) {
            if (claim.run() > 1) {
                logger.warn("Running slot {} of job '{}' again: its first run (token {}) never finished, its holder "
                        + "stopped mid-run", slot, job, claim.previousToken());
            }
            else {
                logger.warn("Slot {} of job '{}' never finished: its holder (token {}) stopped mid-run; recorded as "
                        + "crashed and not run again", previous, job, claim.previousToken());
            }
            events.slotCrashed(request.label(), previous);
        }
        List<Instant> missed = claim.run() > 1 ? List.of() : missed(request.schedule(), previous, slot);
        if (!missed.isEmpty()) {
            logger.warn("Job '{}' missed {} slot(s) before {}: {}{}", job, missed.size(), slot, missed,
                    request.onMissed() == MissedSlotPolicy.CATCH_UP ? "; running once to catch up" : "");
            events.slotsMissed(request.label(), missed);
        }
        T value;
        try {
            if (!missed.isEmpty() && request.onMissed() == MissedSlotPolicy.CATCH_UP) {
                new SlotExecution(job, missed.get(missed.size() - 1), 1, true, lease).bound(work);
            }
            value = new SlotExecution(job, slot, claim.run(), false, lease).bound(work);
        }
        catch (Throwable ex) {
            finish(request, lease, SlotRunOutcome.FAILED);
            throw ex;
        }
        finish(request, lease, lease.isLost() ? SlotRunOutcome.LOST : SlotRunOutcome.SUCCEEDED);
        return new SlotOutcome<>(SlotOutcome.Status.RAN, slot, value, missed, claim.run() > 1, null);
    }

    private void finish(SlotRequest request, Lease lease, SlotRunOutcome outcome) {
        try {
            manager.repository().finishSlot(request.job(), request.slot(), lease.token(), outcome);
        }
        catch (RuntimeException ex) {
            logger.warn("Could not record that slot {} of job '{}' ended {}; a later claim will count it as crashed",
                    request.slot(), request.job(), outcome, ex);
        }
        events.slotRan(request.label(), request.slot(), outcome);
    }

    /** The schedule's fire times strictly between the previous claimed slot and this one. */
    private static List<Instant> missed(@Nullable SlotSchedule schedule, @Nullable Instant previous, Instant slot) {
        if (schedule == null || previous == null || !previous.isBefore(slot)) {
            return List.of();
        }
        List<Instant> missed = new ArrayList<>();
        for (Instant next = schedule.next(previous); next != null && next.isBefore(slot)
                && missed.size() < MAX_MISSED_LISTED; next = schedule.next(next)) {
            missed.add(next);
        }
        return missed;
    }
}
