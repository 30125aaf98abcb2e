package io.distlock.spring.aop;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import io.distlock.core.CurrentLease;
import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.spring.OnLocked;
import io.distlock.spring.support.AsynchronousResult;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.ContextView;

import org.springframework.aop.ProxyMethodInvocation;

/**
 * Guards the reactive results of {@link io.distlock.spring.DistributedLock} methods — {@code Mono}, {@code Flux}
 * and every deferred type Spring's {@code ReactiveAdapterRegistry} adapts, and Kotlin suspend functions, which Spring
 * AOP runs as a {@code Mono} — on subscription: the lock is taken without holding a thread while it waits
 * ({@link LockManager#acquireAsync}), the method is called once it is held (so the whole of its work runs under
 * it), with the lease bound to the thread while the method builds its result and in the subscriber's context under
 * {@link CurrentLease#CONTEXT_KEY}; the lease is released exactly once, when the result completes, fails or is
 * cancelled — a cancel that races with the acquire included. A lease found lost while the work runs stops it: the
 * work's subscription is cancelled, and the result fails with the loss (or completes empty with SKIP). Every store
 * statement runs on Reactor's bounded-elastic scheduler, never on the subscriber's thread, which may be an event
 * loop. A subscription inside one that holds the lease on the same resource joins it.
 *
 * <p>One concept, hence its length: the life of one lease under a reactive result, whose subscription, loss, cancel
 * and completion race one another and must be settled in one place to release exactly once.
 */
final class ReactiveLockedCalls {

    private static final Logger logger = LoggerFactory.getLogger(DistributedLockInterceptor.class);

    private final Supplier<LockManager> lockManager;

    private final AsynchronousRuns runs;

    private final Scheduler statements = Schedulers.boundedElastic();

    private final Executor executor = task -> statements.schedule(task);

    ReactiveLockedCalls(Supplier<LockManager> lockManager, AsynchronousRuns runs) {
        this.lockManager = lockManager;
        this.runs = runs;
    }

    /**
     * The guarded result of a call, of the method's own type.
     *
     * @param lockedMethod the declaration
     * @param resource the call's resource
     * @param invocation the call, proceeded once the lock is held
     * @return a result of the declared type (a {@code Mono} or {@code Flux} for a suspend function)
     */
    Object invoke(LockedMethod lockedMethod, String resource, MethodInvocation invocation) {
        AsynchronousResult result = java.util.Objects.requireNonNull(lockedMethod.asynchronous());
        Supplier<Publisher<?>> work = () -> publisher(result, invocation);
        Publisher<Object> guarded = result.multiValue() ? flux(lockedMethod, resource, work)
                : mono(lockedMethod, resource, work);
        return result.adapter() != null ? result.adapter().fromPublisher(guarded) : guarded;
    }

    /**
     * A result of the method's own type that fails on subscription, for a call that cannot be made at all.
     *
     * @param result the method's result
     * @param error why
     * @return a failed {@code Mono}, {@code Flux} or adapted type
     */
    Object failed(AsynchronousResult result, Throwable error) {
        Publisher<Object> failed = result.multiValue() ? Flux.error(error) : Mono.error(error);
        return result.adapter() != null ? result.adapter().fromPublisher(failed) : failed;
    }

    /**
     * A {@code CompletableFuture} method called on a thread that must not block: the call is made on subscription to
     * a {@code Mono} of its future, once the lock is held.
     */
    Object invokeFuture(LockedMethod lockedMethod, String resource, MethodInvocation invocation) {
        return mono(lockedMethod, resource, () -> {
            Object future = proceed(invocation);
            return future == null ? Mono.empty()
                    : Mono.fromCompletionStage((java.util.concurrent.CompletionStage<?>) future);
        }).toFuture();
    }

    /** @return whether this thread must not block: an event loop (Reactor's or Netty's) or a parallel scheduler */
    boolean onNonBlockingThread() {
        return NonBlockingThreads.isCurrent();
    }

    /** Runs a task on the bounded-elastic scheduler, off whichever thread asks. */
    void runElsewhere(Runnable task) {
        statements.schedule(task);
    }

    private Mono<Object> mono(LockedMethod lockedMethod, String resource, Supplier<Publisher<?>> work) {
        return Mono.deferContextual(context -> {
            Lease enclosing = enclosing(context, resource);
            if (enclosing != null) {
                return Mono.from(work.get());
            }
            // The release on completion is part of the work, so that a lease found lost fails the result; the
            // resource's own cleanup then finds it released.
            return Mono.usingWhen(acquire(lockedMethod, resource),
                    lease -> lease.isPresent() ? held(lockedMethod, lease.get(), work)
                            : notAcquired(lockedMethod, resource),
                    lease -> cancelled(lease),
                    (lease, error) -> failed(lockedMethod, lease, error),
                    lease -> cancelled(lease));
        });
    }

    private Flux<Object> flux(LockedMethod lockedMethod, String resource, Supplier<Publisher<?>> work) {
        return Flux.deferContextual(context -> {
            Lease enclosing = enclosing(context, resource);
            if (enclosing != null) {
                return Flux.from(work.get());
            }
            return Flux.usingWhen(acquire(lockedMethod, resource),
                    lease -> lease.isPresent() ? heldMany(lockedMethod, lease.get(), work)
                            : notAcquired(lockedMethod, resource),
                    lease -> cancelled(lease),
                    (lease, error) -> failed(lockedMethod, lease, error),
                    lease -> cancelled(lease));
        });
    }

    private Mono<Optional<Lease>> acquire(LockedMethod lockedMethod, String resource) {
        // Subscribed on the bounded-elastic scheduler: the first call looks the manager up, which may wait.
        return Mono.defer(() -> {
            Acquiring acquiring = new Acquiring();
            return Mono.fromFuture(() -> acquiring.started(lockManager.get().acquireAsync(
                    lockedMethod.request(resource), executor)), false).subscribeOn(statements)
                    .doOnCancel(acquiring::cancelled);
        });
    }

    /**
     * One subscription's acquire, safe against a cancel at any moment of it. Cancelling a future still running
     * cancels the acquire, and a lease an attempt in flight takes is then released at once; but a future that
     * completed before Reactor asked for its value (its request hops to another thread) or while it delivered it
     * keeps its lease, which nobody would release and the watchdog would keep alive: released here.
     */
    private final class Acquiring {

        private final AtomicReference<CompletableFuture<Optional<Lease>>> future = new AtomicReference<>();

        private final java.util.concurrent.atomic.AtomicBoolean cancelled =
                new java.util.concurrent.atomic.AtomicBoolean();

        CompletableFuture<Optional<Lease>> started(CompletableFuture<Optional<Lease>> acquire) {
            future.set(acquire);
            if (cancelled.get()) {
                releaseWhenTaken(acquire);
            }
            return acquire;
        }

        void cancelled() {
            cancelled.set(true);
            CompletableFuture<Optional<Lease>> acquire = future.get();
            if (acquire != null) {
                releaseWhenTaken(acquire);
            }
        }

        /** A lease's release is sent once however often it is asked for: a subscription's other ends are safe. */
        private void releaseWhenTaken(CompletableFuture<Optional<Lease>> acquire) {
            acquire.thenAccept(lease -> lease.ifPresent(taken -> statements.schedule(() -> runs.release(taken))));
        }
    }

    /** The work of one subscription that holds its lease, stopped when the lease is found lost. */
    private Mono<Object> held(LockedMethod lockedMethod, Lease lease, Supplier<Publisher<?>> work) {
        AtomicReference<Stop> stopped = new AtomicReference<>();
        return Mono.from(under(lease, work)).takeUntilOther(stop(lease, stopped))
                .contextWrite(inner -> inner.put(CurrentLease.CONTEXT_KEY, lease)).singleOptional()
                .flatMap(value -> completed(lockedMethod, lease, stopped).then(Mono.justOrEmpty(value)));
    }

    private Flux<Object> heldMany(LockedMethod lockedMethod, Lease lease, Supplier<Publisher<?>> work) {
        AtomicReference<Stop> stopped = new AtomicReference<>();
        return Flux.from(under(lease, work)).takeUntilOther(stop(lease, stopped))
                .contextWrite(inner -> inner.put(CurrentLease.CONTEXT_KEY, lease))
                .concatWith(completed(lockedMethod, lease, stopped));
    }

    /**
     * Emits once the lease is found lost (by the watchdog, whose thread it leaves at once) or the application closes,
     * so that the work is stopped: its subscription cancelled, as a dispose would.
     */
    private Mono<Boolean> stop(Lease lease, AtomicReference<Stop> stopped) {
        return Mono.<Boolean>create(sink -> {
            java.util.function.Consumer<Stop> stop = why -> {
                if (stopped.compareAndSet(null, why)) {
                    statements.schedule(() -> sink.success(true));
                }
            };
            lease.onLost((lostLease, reason) -> stop.accept(Stop.LOST));
            runs.started(lease, () -> stop.accept(Stop.CLOSING));
            if (lease.isLost()) {
                stop.accept(Stop.LOST);
            }
        });
    }

    /** Builds the method's result with the lease bound to the thread, as a synchronous method sees it. */
    @SuppressWarnings("unchecked")
    private static Publisher<Object> under(Lease lease, Supplier<Publisher<?>> work) {
        try {
            return (Publisher<Object>) CurrentLease.callWith(lease, held -> work.get());
        }
        catch (MethodFailure ex) {
            return Mono.error(ex.getCause());
        }
        catch (RuntimeException | Error ex) {
            return Mono.error(ex);
        }
    }

    private static Publisher<?> publisher(AsynchronousResult result, MethodInvocation invocation) {
        Object returned = proceed(invocation);
        if (returned == null) {
            return Mono.empty();
        }
        return result.adapter() != null ? result.adapter().toPublisher(returned) : (Publisher<?>) returned;
    }

    /**
     * Calls the method, on a copy of the invocation: a reactive result may be subscribed to many times (Spring's
     * scheduler calls a reactive {@code @Scheduled} method once and subscribes at every run), each subscription
     * calling it anew through the rest of the advice chain.
     */
    private static @Nullable Object proceed(MethodInvocation invocation) {
        try {
            return (invocation instanceof ProxyMethodInvocation proxied ? proxied.invocableClone() : invocation)
                    .proceed();
        }
        catch (RuntimeException | Error ex) {
            throw ex;
        }
        catch (Throwable ex) {
            throw new MethodFailure(ex);
        }
    }

    private <T> Mono<T> notAcquired(LockedMethod lockedMethod, String resource) {
        if (lockedMethod.onLocked() == OnLocked.SKIP) {
            logger.debug("Skipped {}: the lock on '{}' is held by another owner", lockedMethod.description(),
                    resource);
            return Mono.empty();
        }
        return Mono.fromCallable(() -> DistributedLockInterceptor.notAcquired(lockedMethod, resource,
                lockManager.get())).subscribeOn(statements).flatMap(Mono::error);
    }

    /**
     * Releases the lease of work that completed or was stopped; a lease found lost fails the result unless the method
     * skips.
     */
    private Mono<Object> completed(LockedMethod lockedMethod, Lease lease, AtomicReference<Stop> stopped) {
        return Mono.fromCallable(() -> Optional.ofNullable(runs.release(lease))).subscribeOn(statements)
                .flatMap(loss -> {
                    if (loss.isEmpty()) {
                        return stopped.get() == Stop.CLOSING
                                ? Mono.error(AsynchronousRuns.closed(lockedMethod.description())) : Mono.empty();
                    }
                    DistributedLockInterceptor.warnLost(lockedMethod, stopped.get() != null ? "was stopped"
                            : "completed", loss.get());
                    // WAIT gives up as THROW does, on a lost lease too; SKIP keeps what the work gave.
                    return lockedMethod.onLocked() == OnLocked.SKIP ? Mono.empty() : Mono.error(loss.get());
                });
    }

    private Mono<Object> failed(LockedMethod lockedMethod, Optional<Lease> lease, Throwable error) {
        if (lease.isEmpty() || lease.get().isReleased()) {
            // Released already: the work completed and its release told the loss it fails with.
            return Mono.empty();
        }
        return Mono.fromCallable(() -> runs.release(lease.get())).subscribeOn(statements).doOnNext(loss -> {
            error.addSuppressed(loss);
            DistributedLockInterceptor.warnLost(lockedMethod, "failed", loss);
        }).then(Mono.empty());
    }

    private Mono<Object> cancelled(Optional<Lease> lease) {
        if (lease.isEmpty()) {
            return Mono.empty();
        }
        return Mono.fromRunnable(() -> runs.release(lease.get())).subscribeOn(statements).then(Mono.empty());
    }

    private static @Nullable Lease enclosing(ContextView context, String resource) {
        return context.<Lease>getOrEmpty(CurrentLease.CONTEXT_KEY)
                .filter(lease -> lease.resource().equals(resource) && !lease.isReleased() && !lease.isLost())
                .orElse(null);
    }

    /** Why a run was stopped before its work ended. */
    private enum Stop {

        /** Its lease was found lost. */
        LOST,

        /** The application context closed. */
        CLOSING
    }

    /** A checked exception of the method itself, carried out of a supplier and unwrapped by the caller. */
    static final class MethodFailure extends RuntimeException {

        private static final long serialVersionUID = 1L;

        MethodFailure(Throwable cause) {
            super(cause);
        }
    }
}
