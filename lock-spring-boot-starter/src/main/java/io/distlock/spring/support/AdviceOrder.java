package io.distlock.spring.support;

import org.springframework.core.Ordered;

/**
 * Where the lock aspects ({@code @DistributedLock} and {@code @OncePerSlot}) stand among the advisors of a bean.
 */
public final class AdviceOrder {

    /**
     * The default order ({@code distributed-lock.aop-order}): just ahead of the transaction advisor (whose default is
     * {@link Ordered#LOWEST_PRECEDENCE}), so that a lock wraps the transaction and is released only after it
     * committed.
     */
    public static final int DEFAULT = Ordered.LOWEST_PRECEDENCE - 100;

    private AdviceOrder() {
    }
}
