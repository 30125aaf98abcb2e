package io.distlock.core;

import io.micrometer.context.ThreadLocalAccessor;
import org.jspecify.annotations.Nullable;

/**
 * {@link CurrentLease} for Micrometer's context propagation: carries the lease of guarded work from a reactive
 * context ({@link CurrentLease#CONTEXT_KEY}) to the thread-local {@link CurrentLease#get()} reads, on whatever thread
 * the work goes on — Reactor's operators with automatic context propagation, Kotlin coroutines with Spring's
 * {@code PropagationContextElement}. Registered through {@code META-INF/services}, used only when
 * {@code io.micrometer:context-propagation} is on the class path.
 */
public final class LeaseThreadLocalAccessor implements ThreadLocalAccessor<Lease> {

    @Override
    public Object key() {
        return CurrentLease.CONTEXT_KEY;
    }

    @Override
    public @Nullable Lease getValue() {
        return LeaseScope.current();
    }

    @Override
    public void setValue(Lease lease) {
        LeaseScope.push(lease);
    }

    @Override
    public void setValue() {
        LeaseScope.clear();
    }

    @Override
    public void restore(Lease previous) {
        LeaseScope.restore(previous);
    }

    @Override
    public void restore() {
        LeaseScope.restore(null);
    }
}
