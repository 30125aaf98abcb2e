package io.distlock.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.distlock.core.CrashPolicy;
import io.distlock.core.MissedSlotPolicy;

/**
 * Runs a {@code @Scheduled} method exactly once per scheduled slot across all replicas, with no minimum hold to
 * guess. The slot is the trigger's fire time of this execution — for a cron trigger the latest fire time of its
 * expression (in its zone) at the moment the run starts on the scheduler's clock, for a fixed rate the period's
 * window aligned to the epoch — so replicas whose clocks disagree label the same slot the same way. Under the job's
 * lock, the slot is claimed only if it is later than the job's last claimed slot: a late replica (clock skew, a GC
 * pause, a slow start, even a skew larger than the period) finds it claimed and skips it.
 *
 * <pre>{@code
 * @Scheduled(cron = "0 0 * * * *")
 * @OncePerSlot(job = "hourly-report")
 * public void hourlyReport() { … }
 * }</pre>
 *
 * <p>Checked at start-up: the method must be {@code @Scheduled} with a {@code cron} or a {@code fixedRate} (a fixed
 * delay defines no slots), and cannot also be {@link DistributedLock}. While it runs,
 * {@link io.distlock.core.SlotExecution#current()} tells the slot, and {@link io.distlock.core.CurrentLease} the lease.
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface OncePerSlot {

    /**
     * The job's name: the resource of its lock and the key of its slots. Literal text or a {@code ${…}} placeholder;
     * empty names the job after the method ({@code com.example.Reports.hourly}).
     *
     * @return the job's name
     */
    String job() default "";

    /**
     * The lease length; the watchdog renews it while the method runs, so a crashed replica frees the job within one
     * TTL. Empty means {@code distributed-lock.default-ttl}.
     *
     * @return an ISO-8601 ({@code PT30S}) duration or a number with a unit ({@code 30s}); a number without a unit
     *     is refused at start-up
     */
    String ttl() default "";

    /**
     * How long the watchdog renews the lease at most. Empty means {@code distributed-lock.max-hold}.
     *
     * @return a duration
     */
    String maxHold() default "";

    /**
     * What happens to a slot whose run never finished because its replica died mid-run.
     *
     * @return the policy; {@link CrashPolicy#AT_MOST_ONCE} by default, because re-running work that may have had
     *     its side effects runs them twice
     */
    CrashPolicy onCrash() default CrashPolicy.AT_MOST_ONCE;

    /**
     * What happens when slots were missed (no replica ran them); they are always logged at WARN and counted.
     *
     * @return the policy; {@link MissedSlotPolicy#SKIP} by default
     */
    MissedSlotPolicy onMissed() default MissedSlotPolicy.SKIP;
}
