package io.distlock.spring.slot;

import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;

import io.distlock.core.CrashPolicy;
import io.distlock.core.LockRequest;
import io.distlock.core.MissedSlotPolicy;
import io.distlock.core.SlotRequest;

/**
 * A {@link io.distlock.spring.OncePerSlot} declaration, parsed and checked, with its {@code @Scheduled} trigger.
 *
 * @param method the scheduled method
 * @param description the method named for messages
 * @param job the job's name
 * @param ttl the lease length
 * @param maxHold how long the watchdog renews at most
 * @param onCrash what happens to a crashed slot
 * @param onMissed what happens to missed slots
 * @param trigger the slots the method's trigger defines
 * @param scheduler the qualifier of the {@code @Scheduled} method's scheduler, or empty for the default one
 */
record SlotMethod(Method method, String description, String job, Duration ttl, Duration maxHold, CrashPolicy onCrash,
        MissedSlotPolicy onMissed, SlotTrigger trigger, String scheduler) {

    /** The longest an at-most-once run waits for the job's lock held elsewhere. */
    static final Duration SHORT_WAIT = Duration.ofSeconds(1);

    /**
     * The request of the run that starts now.
     *
     * @param now the scheduler's clock
     * @return the request for the slot this run is for
     */
    SlotRequest request(Instant now) {
        Instant slot = trigger.slotAt(now);
        SlotRequest request = new SlotRequest(job, slot, ttl, maxHold, Duration.ZERO, onCrash, onMissed, trigger, job);
        Instant next = trigger.next(slot);
        Duration untilNext = next == null ? ttl : Duration.between(now, next).minus(SlotTrigger.EARLY);
        if (untilNext.isNegative()) {
            return request;
        }
        if (onCrash == CrashPolicy.AT_LEAST_ONCE) {
            // Wait for the job's lock until shortly before the next slot, so that a crashed run can be run again here.
            return request.withMaxWait(min(untilNext, LockRequest.MAX_WAIT));
        }
        // Wait a moment: a late replica may hold the job's lock just long enough to find its own slot claimed, and an
        // on-time run that skipped then would leave this slot missed. A claim never runs a slot twice, so waiting is
        // safe; it is kept short, since it holds the scheduler's thread.
        return request.withMaxWait(min(untilNext.dividedBy(4), SHORT_WAIT));
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
