package io.distlock.spring.aop;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import io.distlock.core.FailureLog;
import io.distlock.core.LockLostException;
import io.distlock.core.LockManager;
import io.distlock.core.LockOutcome;
import io.distlock.core.LockRecord;
import io.distlock.spring.LockNotAcquiredException;
import io.distlock.spring.OnLocked;
import io.distlock.spring.support.AsynchronousResult;
import io.distlock.spring.support.AsynchronousResults;
import io.distlock.spring.support.DeclaredMethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.Schedules;

/**
 * Runs a {@link io.distlock.spring.DistributedLock} method through {@link LockManager#runLocked}: turns the
 * declaration and the call's arguments into a lock request, and the outcome into what the caller sees — the method's
 * result, {@code null} or {@code Optional.empty()} for a skipped call, or an exception as {@link OnLocked} says. A
 * {@code @Scheduled} method whose lock store does not answer is skipped: only the scheduler would see the exception,
 * and log it at ERROR with a stack trace on every run of an outage, so the failure is told here instead, one WARN
 * line naming the method, the lock and the cause, repeated failures summarised ({@link FailureLog}).
 */
final class DistributedLockInterceptor extends DeclaredMethodInterceptor<LockedMethod> {

    private static final Logger logger = LoggerFactory.getLogger(DistributedLockInterceptor.class);

    private final LockedMethods lockedMethods;

    private final Supplier<LockManager> lockManager;

    /** Failures to reach the lock store of each scheduled method, told without flooding the log in an outage. */
    private final Map<LockedMethod, FailureLog> storeFailures = new ConcurrentHashMap<>();

    /** Reactive results, when Reactor is on the class path. */
    private final @Nullable ReactiveLockedCalls reactive;

    private final CompletionStageLockedCalls completionStages;

    DistributedLockInterceptor(LockedMethods lockedMethods, Supplier<LockManager> lockManager,
            AsynchronousRuns runs) {
        super(lockedMethods.declarations());
        this.lockedMethods = lockedMethods;
        this.lockManager = lockManager;
        this.reactive = AsynchronousResults.REACTOR_PRESENT ? new ReactiveLockedCalls(lockManager, runs) : null;
        this.completionStages = new CompletionStageLockedCalls(lockManager, reactive, runs);
    }

    @Override
    protected @Nullable Object invoke(LockedMethod lockedMethod, MethodInvocation invocation, @Nullable Object target,
            Class<?> targetClass) throws Throwable {
        AsynchronousResult asynchronous = lockedMethod.asynchronous();
        String resource;
        try {
            resource = lockedMethods.resourceName(lockedMethod, target, targetClass, invocation.getArguments());
        }
        catch (RuntimeException ex) {
            if (asynchronous == null) {
                throw ex;
            }
            // A caller of an asynchronous method looks for its failures in the result, not around the call.
            return asynchronous.kind() == AsynchronousResult.Kind.COMPLETION_STAGE ? CompletableFuture.failedFuture(ex)
                    : Objects.requireNonNull(reactive, "Reactor").failed(asynchronous, ex);
        }
        if (asynchronous != null) {
            // Held until the result completes; the start-up check refused what cannot be.
            return asynchronous.kind() == AsynchronousResult.Kind.COMPLETION_STAGE
                    ? completionStages.invoke(lockedMethod, resource, invocation)
                    : Objects.requireNonNull(reactive, "Reactor").invoke(lockedMethod, resource, invocation);
        }
        LockOutcome<Object> outcome;
        AtomicBoolean ran = new AtomicBoolean();
        try {
            outcome = lockManager.get().runLocked(lockedMethod.request(resource), lease -> {
                ran.set(true);
                return invocation.proceed();
            });
            if (!storeFailures.isEmpty()) {
                FailureLog failures = storeFailures.get(lockedMethod);
                if (failures != null && failures.failures() > 0) {
                    failures.succeeded("Taking the lock of " + lockedMethod.description());
                }
            }
        }
        catch (DataAccessException ex) {
            if (ran.get() || !isScheduled(lockedMethod)) {
                throw ex;
            }
            // Only the scheduler would see it, and log it at ERROR with a stack trace on every run of an outage.
            storeFailures(lockedMethod).failed("Skipped " + lockedMethod.description() + ": the lock store did not "
                    + "answer for the lock on '" + resource + "'", ex);
            return lockedMethod.returnsOptional() ? Optional.empty() : null;
        }
        catch (Throwable ex) {
            for (Throwable suppressed : ex.getSuppressed()) {
                if (suppressed instanceof LockLostException lost) {
                    warnLost(lockedMethod, "failed", lost);
                }
            }
            throw ex;
        }
        return switch (outcome.status()) {
            case RAN -> outcome.value();
            case NOT_ACQUIRED -> notAcquired(lockedMethod, resource);
            case LOST -> lost(lockedMethod, outcome);
        };
    }

    private @Nullable Object notAcquired(LockedMethod lockedMethod, String resource) {
        if (lockedMethod.onLocked() == OnLocked.SKIP) {
            logger.debug("Skipped {}: the lock on '{}' is held by another owner", lockedMethod.description(), resource);
            return lockedMethod.returnsOptional() ? Optional.empty() : null;
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new LockNotAcquiredException(resource, null, "interrupted while waiting", null);
        }
        throw notAcquired(lockedMethod, resource, lockManager.get());
    }

    /** What a THROW or WAIT call that did not get its lock fails with, naming the holder when the store tells it. */
    static LockNotAcquiredException notAcquired(LockedMethod lockedMethod, String resource, LockManager lockManager) {
        String detail = lockedMethod.onLocked() == OnLocked.WAIT ? "gave up after waiting " + lockedMethod.waitTimeout()
                : "";
        return new LockNotAcquiredException(resource, holder(resource, lockManager), detail, null);
    }

    private @Nullable Object lost(LockedMethod lockedMethod, LockOutcome<Object> outcome) {
        LockLostException loss = Objects.requireNonNull(outcome.loss());
        warnLost(lockedMethod, "returned", loss);
        if (lockedMethod.onLocked() != OnLocked.SKIP) {
            // WAIT gives up as THROW does, on a lost lease too.
            throw loss;
        }
        return outcome.value();
    }

    private FailureLog storeFailures(LockedMethod lockedMethod) {
        return storeFailures.computeIfAbsent(lockedMethod, method -> new FailureLog(logger));
    }

    private static boolean isScheduled(LockedMethod lockedMethod) {
        return AnnotatedElementUtils.hasAnnotation(lockedMethod.method(), Scheduled.class)
                || AnnotatedElementUtils.hasAnnotation(lockedMethod.method(), Schedules.class);
    }

    static void warnLost(LockedMethod lockedMethod, String how, LockLostException loss) {
        logger.warn("{} {} after losing its lock: {}", lockedMethod.description(), how, loss.getMessage());
    }

    private static @Nullable LockRecord holder(String resource, LockManager lockManager) {
        try {
            return lockManager.repository().find(resource).orElse(null);
        }
        catch (DataAccessException ex) {
            logger.debug("Could not read the holder of the lock on '{}'", resource, ex);
            return null;
        }
    }
}
