package io.distlock.spring;

import java.util.Optional;

import io.distlock.core.CurrentLease;
import io.distlock.core.Lease;
import io.distlock.core.SlotExecution;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * What the reactive work of a guarded method finds in its Reactor {@code Context}: the lease of a
 * {@link DistributedLock} or {@link OncePerSlot} method, and the slot of a {@code @OncePerSlot} run. Reactive work
 * hops between threads, so {@link CurrentLease} sees the lease only while the method builds its result, or
 * everywhere when Micrometer's context propagation is on ({@code spring.reactor.context-propagation=auto}); the
 * context always has it. Kotlin suspend functions read it as {@code LockContext.lease().awaitSingle()}, since their
 * coroutine context carries the subscriber's Reactor context.
 *
 * <pre>{@code
 * @DistributedLock(resource = "report:#{#month}")
 * public Mono<Report> build(YearMonth month) {
 *     return LockContext.lease().flatMap(lease -> reports.write(month, lease.token()));
 * }
 * }</pre>
 *
 * Needs {@code io.projectreactor:reactor-core}, as reactive results do.
 */
public final class LockContext {

    /** The key of a {@code @OncePerSlot} run's {@link SlotExecution} in the Reactor context. */
    public static final String SLOT_KEY = "io.distlock.core.SlotExecution";

    private LockContext() {
    }

    /**
     * The lease of the guarded work this is subscribed in.
     *
     * @return the lease, or empty outside guarded work
     */
    public static Mono<Lease> lease() {
        return Mono.deferContextual(context -> Mono.justOrEmpty(lease(context)));
    }

    /**
     * The lease in a Reactor context.
     *
     * @param context the context, such as {@code Mono.deferContextual}'s
     * @return the lease under {@link CurrentLease#CONTEXT_KEY}, or empty
     */
    public static Optional<Lease> lease(ContextView context) {
        return context.getOrEmpty(CurrentLease.CONTEXT_KEY);
    }

    /**
     * The slot of the {@code @OncePerSlot} run this is subscribed in.
     *
     * @return the slot's execution, or empty outside a slot's run
     */
    public static Mono<SlotExecution> slot() {
        return Mono.deferContextual(context -> Mono.justOrEmpty(slot(context)));
    }

    /**
     * The slot in a Reactor context.
     *
     * @param context the context
     * @return the execution under {@link #SLOT_KEY}, or empty
     */
    public static Optional<SlotExecution> slot(ContextView context) {
        return context.getOrEmpty(SLOT_KEY);
    }
}
