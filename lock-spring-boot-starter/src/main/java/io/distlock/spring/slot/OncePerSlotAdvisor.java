package io.distlock.spring.slot;

import io.distlock.spring.OncePerSlot;
import org.aopalliance.aop.Advice;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.annotation.AnnotationMethodMatcher;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * Applies the once-per-slot interceptor to every {@link OncePerSlot} method, ordered like the
 * {@code @DistributedLock} advisor: outside {@code @Transactional}, so the slot ends after the commit.
 */
final class OncePerSlotAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    private final transient Pointcut pointcut = new ComposablePointcut(
            type -> AnnotationUtils.isCandidateClass(type, OncePerSlot.class),
            new AnnotationMethodMatcher(OncePerSlot.class, true));

    private final transient OncePerSlotInterceptor interceptor;

    OncePerSlotAdvisor(OncePerSlotInterceptor interceptor, int order) {
        this.interceptor = interceptor;
        setOrder(order);
    }

    @Override
    public Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public Advice getAdvice() {
        return interceptor;
    }
}
