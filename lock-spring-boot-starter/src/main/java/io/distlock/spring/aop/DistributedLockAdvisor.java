package io.distlock.spring.aop;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.support.AdviceOrder;
import io.distlock.spring.support.AnnotatedMethodAdvisor;

/**
 * Applies the {@link DistributedLockInterceptor} to every method annotated with {@link DistributedLock}, directly or
 * on an interface or superclass method it implements. Its order places it outside {@code @Transactional} by default,
 * so that a lock is released only after the transaction committed.
 */
public final class DistributedLockAdvisor extends AnnotatedMethodAdvisor {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the advisor with the {@link AdviceOrder#DEFAULT} order.
     *
     * @param interceptor the advice
     */
    DistributedLockAdvisor(DistributedLockInterceptor interceptor) {
        super(DistributedLock.class, interceptor, AdviceOrder.DEFAULT);
    }
}
