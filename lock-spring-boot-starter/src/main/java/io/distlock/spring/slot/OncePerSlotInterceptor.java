package io.distlock.spring.slot;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;

import io.distlock.core.CrashPolicy;
import io.distlock.core.LockManager;
import io.distlock.core.LockOutcome;
import io.distlock.core.LockRequest;
import io.distlock.core.SlotOutcome;
import io.distlock.core.SlotRequest;
import io.distlock.spring.LockNotAcquiredException;
import io.distlock.spring.support.AsynchronousResults;
import io.distlock.spring.support.DeclaredMethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.aop.ProxyMethodInvocation;

/**
 * Runs a {@link io.distlock.spring.OncePerSlot} method through {@link LockManager#runOncePerSlot}, for the slot its
 * trigger defines at the moment the run starts on its scheduler's clock.
 *
 * <p>A run never holds the scheduler's thread waiting for the job's lock longer than {@link SlotMethod#SHORT_WAIT}.
 * At least once, a slot whose lock stayed held elsewhere may be one whose holder crashed: it is checked again on the
 * same scheduler one lease length later — by then a crashed holder's lease has run out — and again while the lock
 * stays held, until the slot is claimed here, found claimed elsewhere, or the next slot is near.
 *
 * <p>A call that Spring's scheduler did not make ({@link SchedulerCalls}) is for no slot: it claims none and runs
 * under the job's lock, waiting for it up to the job's TTL.
 *
 * <p>A reactive method ({@code Mono}, {@code Flux}, a Kotlin suspend function) is called once by Spring's scheduler,
 * which subscribes to its result at every run: the slot is read, claimed and run to the end of its work at each
 * subscription ({@link ReactiveSlotRuns}).
 */
final class OncePerSlotInterceptor extends DeclaredMethodInterceptor<SlotMethod> {

    private static final Logger logger = LoggerFactory.getLogger(OncePerSlotInterceptor.class);

    private final Supplier<LockManager> lockManager;

    private final SlotSchedulers schedulers;

    /** Reactive results, which Spring's scheduler subscribes to, when Reactor is on the class path. */
    private final @Nullable ReactiveSlotRuns reactive;

    /**
     * @param slotMethods the parsed declarations
     * @param lockManager the manager, looked up on first use
     * @param schedulers the schedulers methods run on
     */
    OncePerSlotInterceptor(SlotMethods slotMethods, Supplier<LockManager> lockManager, SlotSchedulers schedulers) {
        super(slotMethods.declarations());
        this.lockManager = lockManager;
        this.schedulers = schedulers;
        this.reactive = AsynchronousResults.REACTOR_PRESENT ? new ReactiveSlotRuns(lockManager) : null;
    }

    @Override
    protected @Nullable Object invoke(SlotMethod slotMethod, MethodInvocation invocation, @Nullable Object target,
            Class<?> targetClass) throws Throwable {
        if (slotMethod.asynchronous() == null
                && (slotMethod.trigger() == null || !SchedulerCalls.fromScheduler(invocation.getMethod()))) {
            return direct(slotMethod, invocation);
        }
        if (slotMethod.trigger() == null) {
            throw new IllegalStateException(slotMethod.description() + " is @OncePerSlot with its cron disabled "
                    + "(\"-\"), so it has no slots, and returns " + slotMethod.method().getReturnType().getName()
                    + ": a direct call of a reactive job is not guarded; call LockManager.runLocked instead");
        }
        SlotSchedulers.SlotScheduler scheduler = schedulers.forQualifier(slotMethod.scheduler());
        if (slotMethod.asynchronous() != null) {
            // Spring's scheduler calls a reactive method once and subscribes at every run: the slot is read then.
            return reactive(slotMethod, () -> slotMethod.request(scheduler.clock().instant()), scheduler, invocation);
        }
        return run(slotMethod, slotMethod.request(scheduler.clock().instant()), scheduler, invocation);
    }

    /**
     * A call that does not come from Spring's scheduler (application code, a test, an endpoint) is for no slot: it
     * claims none, so it can never take a slot from the scheduled run, and runs under the job's lock, so it never
     * overlaps a scheduled run anywhere. It waits for the lock up to one lease length, then fails.
     */
    private @Nullable Object direct(SlotMethod slotMethod, MethodInvocation invocation) throws Throwable {
        String job = slotMethod.job();
        Duration wait = slotMethod.ttl().compareTo(LockRequest.MAX_WAIT) < 0 ? slotMethod.ttl() : LockRequest.MAX_WAIT;
        LockRequest request = new LockRequest(job, slotMethod.ttl(), wait, Duration.ZERO, slotMethod.maxHold(), true,
                job);
        logger.debug("{} was called directly, not by its scheduler: it runs under the job's lock and claims no slot",
                slotMethod.description());
        LockOutcome<Object> outcome = lockManager.get().runLocked(request, lease -> invocation.proceed());
        return switch (outcome.status()) {
            case RAN -> outcome.value();
            case NOT_ACQUIRED -> throw new LockNotAcquiredException(job, null, "a direct call of "
                    + slotMethod.description() + ", which claims no slot, waited " + wait + " for the job's lock",
                    null);
            case LOST -> throw Objects.requireNonNull(outcome.loss(), "loss");
        };
    }

    private Object reactive(SlotMethod slotMethod, Supplier<SlotRequest> request,
            SlotSchedulers.SlotScheduler scheduler, MethodInvocation invocation) {
        return Objects.requireNonNull(reactive, "Reactor").run(slotMethod, request, invocation,
                (ran, outcome) -> ended(slotMethod, ran, scheduler, invocation, outcome));
    }

    private @Nullable Object run(SlotMethod slotMethod, SlotRequest request, SlotSchedulers.SlotScheduler scheduler,
            MethodInvocation invocation) throws Throwable {
        SlotOutcome<Object> outcome = lockManager.get().runOncePerSlot(request, lease -> invocation.proceed());
        ended(slotMethod, request, scheduler, invocation, outcome);
        return outcome.value();
    }

    /** Tells a run that lost its lease, and has at least once look again at a slot whose lock was held. */
    private void ended(SlotMethod slotMethod, SlotRequest request, SlotSchedulers.SlotScheduler scheduler,
            MethodInvocation invocation, SlotOutcome<Object> outcome) {
        if (outcome.status() == SlotOutcome.Status.LOST) {
            logger.warn("{} ran for slot {} but lost its lease on the way: {}", slotMethod.description(),
                    outcome.slot(), outcome.loss() != null ? outcome.loss().getMessage() : "");
        }
        if (outcome.status() == SlotOutcome.Status.LOCKED && slotMethod.onCrash() == CrashPolicy.AT_LEAST_ONCE) {
            checkAgainLater(slotMethod, request, scheduler, invocation);
        }
    }

    /** At least once: looks at a slot whose lock was held elsewhere again, one lease length from now. */
    private void checkAgainLater(SlotMethod slotMethod, SlotRequest request, SlotSchedulers.SlotScheduler scheduler,
            MethodInvocation invocation) {
        Instant next = Objects.requireNonNull(slotMethod.trigger(), "trigger").next(request.slot());
        Instant checkAt = scheduler.clock().instant().plus(slotMethod.ttl());
        if (next != null && !checkAt.plus(SlotMethod.SHORT_WAIT).isBefore(next.minus(SlotTrigger.EARLY))) {
            logger.debug("{}: the job's lock is held elsewhere and the next slot comes before its lease could run "
                    + "out; the next claim tells slot {} if its run crashed", slotMethod.description(), request.slot());
            return;
        }
        if (!(invocation instanceof ProxyMethodInvocation proxied)) {
            logger.warn("{}: cannot check slot {} again, the call is not a Spring AOP invocation",
                    slotMethod.description(), request.slot());
            return;
        }
        MethodInvocation again = proxied.invocableClone();
        logger.debug("{}: the job's lock is held elsewhere; slot {} is checked again in {} on {}",
                slotMethod.description(), request.slot(), slotMethod.ttl(), scheduler.name());
        scheduler.later().run(() -> {
            try {
                if (slotMethod.asynchronous() != null) {
                    Objects.requireNonNull(reactive, "Reactor").subscribe(slotMethod, reactive(slotMethod,
                            () -> request.withMaxWait(slotMethod.shortWait(request, scheduler.clock().instant())),
                            scheduler, again));
                }
                else {
                    run(slotMethod, request.withMaxWait(slotMethod.shortWait(request, scheduler.clock().instant())),
                            scheduler, again);
                }
            }
            catch (Throwable ex) {
                logger.error("{} failed when slot {} was checked again", slotMethod.description(), request.slot(), ex);
            }
        }, slotMethod.ttl());
    }
}
