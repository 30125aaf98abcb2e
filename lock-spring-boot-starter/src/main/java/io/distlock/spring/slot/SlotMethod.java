package io.distlock.spring.slot;

import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import io.distlock.core.CrashPolicy;
import io.distlock.core.MissedSlotPolicy;
import io.distlock.core.SlotRequest;
import io.distlock.spring.support.AsynchronousResult;
import org.jspecify.annotations.Nullable;

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
 * @param trigger the slots the method's trigger defines, or {@code null} when its cron is disabled
 *     ({@code "-"}): Spring's scheduler never runs it, and a direct call claims no slot
 * @param scheduler the qualifier of the {@code @Scheduled} method's scheduler, or empty for the default one
 * @param asynchronous how a reactive result (which Spring's scheduler subscribes to) is run to its end within the
 *     slot's run; {@code null} for a synchronous method
 */
record SlotMethod(Method method, String description, String job, Duration ttl, Duration maxHold, CrashPolicy onCrash,
        MissedSlotPolicy onMissed, @Nullable SlotTrigger trigger, String scheduler,
        @Nullable AsynchronousResult asynchronous) {

    /** The longest a run waits for the job's lock held elsewhere: it holds the scheduler's thread meanwhile. */
    static final Duration SHORT_WAIT = Duration.ofMillis(500);

    /**
     * The request of the run that starts now. It waits a moment for the job's lock: a late replica may hold it just
     * long enough to find its own slot claimed, and an on-time run that skipped then would leave this slot missed. A
     * claim never runs a slot twice, so waiting is safe; it is kept short, at most {@link #SHORT_WAIT} and a quarter
     * of the time to the next slot, since it holds the scheduler's thread. At least once, a slot whose lock stays
     * held is checked again later ({@link OncePerSlotInterceptor}), never waited for.
     *
     * @param now the scheduler's clock
     * @return the request for the slot this run is for
     */
    SlotRequest request(Instant now) {
        SlotTrigger trigger = Objects.requireNonNull(this.trigger, "a disabled cron has no slots");
        Instant slot = trigger.slotAt(now);
        SlotRequest request = new SlotRequest(job, slot, ttl, maxHold, Duration.ZERO, onCrash, onMissed, trigger, job);
        return request.withMaxWait(shortWait(request, now));
    }

    /**
     * How long a run for a request's slot may wait for the job's lock, from now.
     *
     * @param request the slot's request
     * @param now the scheduler's clock
     * @return at most {@link #SHORT_WAIT} and a quarter of the time to the next slot; zero once that slot is near
     */
    Duration shortWait(SlotRequest request, Instant now) {
        Instant next = Objects.requireNonNull(trigger, "a disabled cron has no slots").next(request.slot());
        Duration untilNext = next == null ? ttl : Duration.between(now, next).minus(SlotTrigger.EARLY);
        if (untilNext.isNegative()) {
            return Duration.ZERO;
        }
        Duration quarter = untilNext.dividedBy(4);
        return quarter.compareTo(SHORT_WAIT) <= 0 ? quarter : SHORT_WAIT;
    }
}
