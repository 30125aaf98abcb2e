package io.distlock.spring.aop;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.distlock.core.CurrentLease;
import io.distlock.core.Lease;
import io.distlock.core.LockLostException;
import io.distlock.core.LockManager;
import io.distlock.spring.LockNotAcquiredException;
import io.distlock.spring.OnLocked;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;

/**
 * Guards {@link io.distlock.spring.DistributedLock} methods that return a {@code CompletableFuture} or
 * {@code CompletionStage}: the lock is taken on the calling thread before the method runs, as for a synchronous
 * method (so its body runs where the caller expects, with the lease bound to the thread), and released exactly once,
 * when the method's future completes or when the caller cancels the future it got — which then no longer waits for
 * the method's work. The outcome comes through the future: SKIP completes it with {@code null}, THROW and WAIT fail
 * it with {@link LockNotAcquiredException}, a store that does not answer fails it with its
 * {@code DataAccessException}. A lease found lost while the work runs is told at once: the future fails with
 * {@link LockLostException} (completes with {@code null} with SKIP) and the method's own future is cancelled.
 * Called on a thread that must not block (a Reactor event loop), the call goes through
 * {@link ReactiveLockedCalls} instead, which takes the lock without blocking and calls the method once it is held.
 */
final class CompletionStageLockedCalls {

    private final Supplier<LockManager> lockManager;

    private final @Nullable ReactiveLockedCalls reactive;

    private final AsynchronousRuns runs;

    /** Runs a task off the calling thread: a loss is found on the watchdog's thread, which must not wait for it. */
    private final Consumer<Runnable> elsewhere;

    /**
     * @param lockManager the manager
     * @param reactive the reactive calls when Reactor is present, for calls on non-blocking threads
     * @param runs the calls running, stopped when the application closes
     */
    CompletionStageLockedCalls(Supplier<LockManager> lockManager, @Nullable ReactiveLockedCalls reactive,
            AsynchronousRuns runs) {
        this.lockManager = lockManager;
        this.reactive = reactive;
        this.runs = runs;
        this.elsewhere = reactive != null ? reactive::runElsewhere : ForkJoinPool.commonPool()::execute;
    }

    @Nullable Object invoke(LockedMethod lockedMethod, String resource, MethodInvocation invocation) throws Throwable {
        if (reactive != null && reactive.onNonBlockingThread()) {
            return reactive.invokeFuture(lockedMethod, resource, invocation);
        }
        Lease current = CurrentLease.get().orElse(null);
        if (current != null && current.resource().equals(resource) && !current.isReleased() && !current.isLost()) {
            // Inside a guarded call on the same resource, on this thread: joins its lease, as runLocked does.
            return invocation.proceed();
        }
        Optional<Lease> acquired;
        try {
            acquired = lockManager.get().acquire(lockedMethod.request(resource));
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(new LockNotAcquiredException(resource, null,
                    "interrupted while waiting", null));
        }
        catch (DataAccessException ex) {
            return CompletableFuture.failedFuture(ex);
        }
        if (acquired.isEmpty()) {
            if (lockedMethod.onLocked() == OnLocked.SKIP) {
                return CompletableFuture.completedFuture(null);
            }
            return CompletableFuture.failedFuture(DistributedLockInterceptor.notAcquired(lockedMethod, resource,
                    lockManager.get()));
        }
        Lease lease = acquired.get();
        Object returned;
        try {
            returned = CurrentLease.callWith(lease, held -> invocation.proceed());
        }
        catch (Throwable ex) {
            LockLostException loss = LeaseReleases.release(lease);
            if (loss != null) {
                ex.addSuppressed(loss);
                DistributedLockInterceptor.warnLost(lockedMethod, "failed", loss);
            }
            throw ex;
        }
        if (returned == null) {
            LeaseReleases.release(lease);
            return null;
        }
        CompletionStage<?> stage = (CompletionStage<?>) returned;
        CompletableFuture<Object> result = new CompletableFuture<>();
        AtomicBoolean ended = new AtomicBoolean();
        stage.whenComplete((value, error) -> {
            if (ended.compareAndSet(false, true)) {
                releaseOffEventLoops(() -> complete(lockedMethod, lease, result, value, error));
            }
        });
        result.whenComplete((value, error) -> {
            if (result.isCancelled() && ended.compareAndSet(false, true)) {
                // The caller gave up: the lock is given back now, and the method's own future cancelled.
                releaseOffEventLoops(() -> runs.release(lease));
                cancel(stage);
            }
        });
        Consumer<Boolean> stop = closing -> {
            if (ended.compareAndSet(false, true)) {
                // Found lost, or the application closes, while the work runs: the caller is told now, and the
                // method's own future cancelled.
                elsewhere.accept(() -> stopped(lockedMethod, lease, result, stage, closing));
            }
        };
        lease.onLost((lostLease, reason) -> stop.accept(false));
        runs.started(lease, () -> stop.accept(true));
        if (lease.isLost()) {
            stop.accept(false);
        }
        return result;
    }

    /** Runs a release where it may block: never on an event loop, where the method's future may complete. */
    private void releaseOffEventLoops(Runnable release) {
        if (NonBlockingThreads.isCurrent()) {
            elsewhere.accept(release);
        }
        else {
            release.run();
        }
    }

    private void stopped(LockedMethod lockedMethod, Lease lease, CompletableFuture<Object> result,
            CompletionStage<?> stage, boolean closing) {
        LockLostException loss = runs.release(lease);
        if (loss == null && closing) {
            result.completeExceptionally(AsynchronousRuns.closed(lockedMethod.description()));
            cancel(stage);
            return;
        }
        if (loss == null) {
            loss = new LockLostException(lease.resource(), lease.owner(), lease.lostReason().orElse("lost"));
        }
        DistributedLockInterceptor.warnLost(lockedMethod, "was stopped", loss);
        if (lockedMethod.onLocked() == OnLocked.SKIP) {
            result.complete(null);
        }
        else {
            result.completeExceptionally(loss);
        }
        cancel(stage);
    }

    private static void cancel(CompletionStage<?> stage) {
        try {
            stage.toCompletableFuture().cancel(false);
        }
        catch (UnsupportedOperationException ex) {
            // A stage that is no CompletableFuture cannot be cancelled: its work runs on without the lock.
        }
    }

    private void complete(LockedMethod lockedMethod, Lease lease, CompletableFuture<Object> result,
            @Nullable Object value, @Nullable Throwable error) {
        LockLostException loss = runs.release(lease);
        if (error != null) {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause()
                    : error;
            if (loss != null) {
                cause.addSuppressed(loss);
                DistributedLockInterceptor.warnLost(lockedMethod, "failed", loss);
            }
            result.completeExceptionally(cause);
            return;
        }
        if (loss != null) {
            DistributedLockInterceptor.warnLost(lockedMethod, "completed", loss);
            if (lockedMethod.onLocked() != OnLocked.SKIP) {
                result.completeExceptionally(loss);
                return;
            }
        }
        result.complete(value);
    }
}
