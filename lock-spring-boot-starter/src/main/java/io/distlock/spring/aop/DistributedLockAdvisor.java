package io.distlock.spring.aop;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.support.AdviceOrder;
import org.aopalliance.aop.Advice;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.annotation.AnnotationMethodMatcher;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * Applies the {@link DistributedLockInterceptor} to every method annotated with {@link DistributedLock}, directly or
 * on an interface or superclass method it implements. Its order places it outside {@code @Transactional} by default,
 * so that a lock is released only after the transaction committed.
 */
public final class DistributedLockAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    private final transient Pointcut pointcut = new ComposablePointcut(
            type -> AnnotationUtils.isCandidateClass(type, DistributedLock.class),
            new AnnotationMethodMatcher(DistributedLock.class, true));

    private final transient DistributedLockInterceptor interceptor;

    /**
     * Creates the advisor with the {@link AdviceOrder#DEFAULT} order.
     *
     * @param interceptor the advice
     */
    DistributedLockAdvisor(DistributedLockInterceptor interceptor) {
        this.interceptor = interceptor;
        setOrder(AdviceOrder.DEFAULT);
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
