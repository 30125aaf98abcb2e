package io.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A scheduled slot of a job to run exactly once across replicas: the job (its lock's resource), the slot (the
 * scheduled fire time of this execution, which every replica labels the same way), the lease, and what to do about
 * crashed and missed slots. Checks itself when it is made.
 *
 * @param job the job: the resource of its lock, 1 to 255 characters
 * @param slot the scheduled fire time this execution is for
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

    public SlotRequest {
        Objects.requireNonNull(slot, "slot must not be null");
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
