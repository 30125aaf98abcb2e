package io.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A scheduled slot of a job to run exactly once across replicas: the job (its lock's resource), the slot (the
 * scheduled fire time of this execution, which every replica labels the same way), the lease, and what to do about
 * crashed and missed slots. Checks itself when it is made.
 *
 * <p>Slots are kept to the millisecond, as the stores keep them: a slot with a finer part (an {@link Instant#now()}
 * with microseconds) is truncated to its millisecond when the request is made, so that the slot claimed, the slot
 * the store gives back and the missed slots counted between two claims are all the same instants.
 *
 * @param job the job: the resource of its lock, 1 to 255 characters
 * @param slot the scheduled fire time this execution is for, kept to the millisecond
 * @param ttl the lease length; the watchdog renews it while the work runs
 * @param maxHold how long the watchdog renews the lease at most
 * @param maxWait how long to wait for the job's lock while another replica holds it (at-least-once waits, so that it
 *     can run a slot again whose holder crashed); zero tries once
 * @param onCrash what happens to a slot whose run never finished
 * @param onMissed what happens when slots were missed
 * @param schedule the trigger's fire times, to name missed slots; {@code null} finds none
 * @param label the name observers and metrics record this job under
 */
public record SlotRequest(String job, Instant slot, Duration ttl, Duration maxHold, Duration maxWait,
        CrashPolicy onCrash, MissedSlotPolicy onMissed, @Nullable SlotSchedule schedule, String label) {

    /**
     * How far ahead of the store's clock a slot may be claimed: a replica labels the slot a moment early (its
     * scheduler may fire a few milliseconds before the fire time, and its clock may differ from the store's by a
     * few more), but a slot later than the store's time plus this tolerance is refused
     * ({@link SlotClaim.Status#TOO_EARLY}), so that a replica whose clock runs ahead never claims slots whose time
     * has not come and so hides them from the others.
     */
    public static final Duration EARLY_TOLERANCE = Duration.ofSeconds(1);

    public SlotRequest {
        Objects.requireNonNull(slot, "slot must not be null");
        slot = slot.truncatedTo(ChronoUnit.MILLIS);
        Objects.requireNonNull(onCrash, "onCrash must not be null");
        Objects.requireNonNull(onMissed, "onMissed must not be null");
        new LockRequest(job, ttl, maxWait, Duration.ZERO, maxHold, true, label);
    }

    /**
     * A request with the defaults: at most once, missed slots skipped (and told), no wait, renewed for at most
     * {@link LockRequest#DEFAULT_MAX_HOLD}.
     *
     * @param job the job
     * @param slot the scheduled fire time
     * @param ttl the lease length
     * @return the request
     */
    public static SlotRequest of(String job, Instant slot, Duration ttl) {
        return new SlotRequest(job, slot, ttl, LockRequest.DEFAULT_MAX_HOLD, Duration.ZERO, CrashPolicy.AT_MOST_ONCE,
                MissedSlotPolicy.SKIP, null, job);
    }

    /**
     * @param policy what happens to a slot whose run never finished
     * @return a new request
     */
    public SlotRequest withOnCrash(CrashPolicy policy) {
        return new SlotRequest(job, slot, ttl, maxHold, maxWait, policy, onMissed, schedule, label);
    }

    /**
     * @param policy what happens when slots were missed
     * @return a new request
     */
    public SlotRequest withOnMissed(MissedSlotPolicy policy) {
        return new SlotRequest(job, slot, ttl, maxHold, maxWait, onCrash, policy, schedule, label);
    }

    /**
     * @param schedule the trigger's fire times
     * @return a new request
     */
    public SlotRequest withSchedule(SlotSchedule schedule) {
        return new SlotRequest(job, slot, ttl, maxHold, maxWait, onCrash, onMissed, schedule, label);
    }

    /**
     * @param maxWait how long to wait for the job's lock
     * @return a new request
     */
    public SlotRequest withMaxWait(Duration maxWait) {
        return new SlotRequest(job, slot, ttl, maxHold, maxWait, onCrash, onMissed, schedule, label);
    }

    /**
     * @param maxHold how long the watchdog renews the lease at most
     * @return a new request
     */
    public SlotRequest withMaxHold(Duration maxHold) {
        return new SlotRequest(job, slot, ttl, maxHold, maxWait, onCrash, onMissed, schedule, label);
    }

    /**
     * @param label the name observers and metrics record this job under
     * @return a new request
     */
    public SlotRequest withLabel(String label) {
        return new SlotRequest(job, slot, ttl, maxHold, maxWait, onCrash, onMissed, schedule, label);
    }

    LockRequest lockRequest() {
        return new LockRequest(job, ttl, maxWait, Duration.ZERO, maxHold, true, label);
    }
}
