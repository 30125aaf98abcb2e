package io.distlock.spring.slot;

import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.distlock.core.CurrentLease;
import io.distlock.core.LockManager;
import io.distlock.core.SlotExecution;
import io.distlock.core.SlotOutcome;
import io.distlock.core.SlotRequest;
import io.distlock.spring.LockContext;
import io.distlock.spring.support.AsynchronousResult;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.aop.ProxyMethodInvocation;

/**
 * Runs the reactive {@link io.distlock.spring.OncePerSlot} methods that Spring's scheduler subscribes to
 * ({@code Mono}, {@code Flux}, any deferred type with a reactive adapter, Kotlin suspend functions): on subscription,
 * the slot's whole run — the job's lock, the claim, the method's work to its end, the finish recorded as
 * {@code SUCCEEDED}, {@code FAILED} or {@code LOST}, the release — goes through {@link LockManager#runOncePerSlot} on
 * Reactor's bounded-elastic scheduler, whose thread waits for the work as a synchronous job's scheduler thread
 * would; the scheduler's own thread returns at once. The method is called once the slot is claimed, with the lease
 * and the slot bound to the thread while it builds its result and in the work's Reactor context
 * ({@link LockContext}); the slot's values are relayed to the subscriber. Cancelling the subscription cancels the
 * work, records the run failed and releases the lock.
 */
final class ReactiveSlotRuns {

    private static final Logger logger = LoggerFactory.getLogger(OncePerSlotInterceptor.class);

    private final Supplier<LockManager> lockManager;

    private final Scheduler runs = Schedulers.boundedElastic();

    ReactiveSlotRuns(Supplier<LockManager> lockManager) {
        this.lockManager = lockManager;
    }

    /**
     * The result the scheduler subscribes to, of the method's declared type.
     *
     * @param slotMethod the declaration
     * @param request the request of the slot at hand, asked at each subscription: Spring's scheduler calls a reactive
     *     method once and subscribes to its result at every run
     * @param invocation the call, proceeded (as a clone, once per run) when the slot is claimed
     * @param ended told of each run's request and how it ended, on the thread that ran it
     * @return the guarded result
     */
    Object run(SlotMethod slotMethod, Supplier<SlotRequest> request, MethodInvocation invocation,
            java.util.function.BiConsumer<SlotRequest, SlotOutcome<Object>> ended) {
        AsynchronousResult result = Objects.requireNonNull(slotMethod.asynchronous());
        Publisher<Object> guarded;
        if (result.multiValue()) {
            guarded = Flux.create(sink -> {
                Run run = new Run(slotMethod, request.get(), invocation, sink::next);
                sink.onCancel(run::cancel);
                run.start(sink::complete, sink::error, ended);
            });
        }
        else {
            guarded = Mono.create(sink -> {
                AtomicReference<@Nullable Object> value = new AtomicReference<>();
                Run run = new Run(slotMethod, request.get(), invocation, value::set);
                sink.onCancel(run::cancel);
                run.start(() -> sink.success(value.get()), sink::error, ended);
            });
        }
        return result.adapter() != null ? result.adapter().fromPublisher(guarded) : guarded;
    }

    /**
     * Subscribes to a run nobody else subscribes to: an at-least-once check of a slot, later on the scheduler.
     *
     * @param slotMethod the declaration
     * @param guarded what {@link #run} returned
     */
    void subscribe(SlotMethod slotMethod, Object guarded) {
        AsynchronousResult result = Objects.requireNonNull(slotMethod.asynchronous());
        Publisher<?> publisher = result.adapter() != null ? result.adapter().toPublisher(guarded)
                : (Publisher<?>) guarded;
        Flux.from(publisher).subscribe(null, error -> logger.error("{} failed when its slot was checked again",
                slotMethod.description(), error));
    }

    /** One slot's run, started on subscription. */
    private final class Run {

        private final SlotMethod slotMethod;

        private final SlotRequest request;

        private final MethodInvocation invocation;

        private final Consumer<Object> values;

        private final AtomicBoolean cancelled = new AtomicBoolean();

        private final AtomicReference<@Nullable Disposable> work = new AtomicReference<>();

        private final CompletableFuture<@Nullable Object> ending = new CompletableFuture<>();

        Run(SlotMethod slotMethod, SlotRequest request, MethodInvocation invocation, Consumer<Object> values) {
            this.slotMethod = slotMethod;
            this.request = request;
            this.invocation = invocation;
            this.values = values;
        }

        void start(Runnable complete, Consumer<Throwable> error,
                java.util.function.BiConsumer<SlotRequest, SlotOutcome<Object>> ended) {
            runs.schedule(() -> {
                try {
                    SlotOutcome<Object> outcome = lockManager.get().runOncePerSlot(request, lease -> {
                        SlotExecution execution = SlotExecution.current().orElseThrow();
                        return await(execution);
                    });
                    ended.accept(request, outcome);
                    complete.run();
                }
                catch (Throwable ex) {
                    error.accept(ex);
                }
            });
        }

        /** Runs the work of one call (the slot's, or a catch-up run before it) to its end, on this thread. */
        private @Nullable Object await(SlotExecution execution) throws Throwable {
            if (cancelled.get()) {
                throw new CancellationException("The subscription to " + slotMethod.description() + " was cancelled");
            }
            CompletableFuture<@Nullable Object> done = new CompletableFuture<>();
            Object returned = ((ProxyMethodInvocation) invocation).invocableClone().proceed();
            AsynchronousResult result = Objects.requireNonNull(slotMethod.asynchronous());
            Publisher<?> publisher = returned == null ? Mono.empty() : result.adapter() != null
                    ? result.adapter().toPublisher(returned) : (Publisher<?>) returned;
            AtomicReference<@Nullable Object> last = new AtomicReference<>();
            Disposable subscription = Flux.from(publisher)
                    .contextWrite(context -> context.put(CurrentLease.CONTEXT_KEY, execution.lease())
                            .put(LockContext.SLOT_KEY, execution))
                    .subscribe(value -> {
                        last.set(value);
                        if (!execution.catchUp()) {
                            values.accept(value);
                        }
                    }, done::completeExceptionally, () -> done.complete(last.get()));
            work.set(subscription);
            ending.whenComplete((ignored, cancel) -> done.completeExceptionally(cancel));
            try {
                return done.get();
            }
            catch (ExecutionException ex) {
                throw ex.getCause();
            }
        }

        void cancel() {
            if (!cancelled.compareAndSet(false, true)) {
                return;
            }
            Disposable subscription = work.get();
            if (subscription != null) {
                subscription.dispose();
            }
            ending.completeExceptionally(new CancellationException("The subscription to "
                    + slotMethod.description() + " was cancelled"));
        }
    }
}
