package io.distlock.spring.slot;

import io.distlock.spring.OncePerSlot;
import io.distlock.spring.support.AnnotatedMethodAdvisor;

/**
 * Applies the once-per-slot interceptor to every {@link OncePerSlot} method, ordered like the
 * {@code @DistributedLock} advisor: outside {@code @Transactional}, so the slot ends after the commit.
 */
final class OncePerSlotAdvisor extends AnnotatedMethodAdvisor {

    private static final long serialVersionUID = 1L;

    OncePerSlotAdvisor(OncePerSlotInterceptor interceptor, int order) {
        super(OncePerSlot.class, interceptor, order);
    }
}
