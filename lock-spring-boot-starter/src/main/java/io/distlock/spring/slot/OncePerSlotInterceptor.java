package io.distlock.spring.slot;

import java.lang.reflect.Method;
import java.time.Clock;
import java.util.function.Function;
import java.util.function.Supplier;

import io.distlock.core.LockManager;
import io.distlock.core.SlotOutcome;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.aop.support.AopUtils;

/**
 * Runs a {@link io.distlock.spring.OncePerSlot} method through {@link LockManager#runOncePerSlot}, for the slot its
 * trigger defines at the moment the run starts on its scheduler's clock.
 */
final class OncePerSlotInterceptor implements MethodInterceptor {

    private static final Logger logger = LoggerFactory.getLogger(OncePerSlotInterceptor.class);

    private final SlotMethods slotMethods;

    private final Supplier<LockManager> lockManager;

    private final Function<String, Clock> schedulerClock;

    /**
     * @param slotMethods the parsed declarations
     * @param lockManager the manager, looked up on first use
     * @param schedulerClock the clock of the scheduler with a qualifier (empty for the default scheduler)
     */
    OncePerSlotInterceptor(SlotMethods slotMethods, Supplier<LockManager> lockManager,
            Function<String, Clock> schedulerClock) {
        this.slotMethods = slotMethods;
        this.lockManager = lockManager;
        this.schedulerClock = schedulerClock;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Method method = invocation.getMethod();
        Class<?> targetClass = target != null ? AopUtils.getTargetClass(target) : method.getDeclaringClass();
        SlotMethod slotMethod = slotMethods.find(method, targetClass);
        if (slotMethod == null) {
            return invocation.proceed();
        }
        Clock clock = schedulerClock.apply(slotMethod.scheduler());
        SlotOutcome<Object> outcome = lockManager.get().runOncePerSlot(slotMethod.request(clock.instant()),
                lease -> invocation.proceed());
        if (outcome.status() == SlotOutcome.Status.LOST) {
            logger.warn("{} ran for slot {} but lost its lease on the way: {}", slotMethod.description(),
                    outcome.slot(), outcome.loss() != null ? outcome.loss().getMessage() : "");
        }
        return outcome.value();
    }
}
