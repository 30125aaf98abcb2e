package io.distlock.spring.aop;

import java.lang.reflect.Method;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.distlock.core.Lease;
import io.distlock.core.LeaseLostListener;
import io.distlock.core.LockLostException;
import io.distlock.core.LockManager;
import io.distlock.core.LockRecord;
import io.distlock.spring.LockNotAcquiredException;
import io.distlock.spring.OnLocked;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.aop.support.AopUtils;
import org.springframework.dao.DataAccessException;

/**
 * Runs a {@link io.distlock.spring.DistributedLock} method while holding its lock: acquires before the call (or
 * joins the lease of an enclosing call on the same resource), binds the lease to the thread, hands it to the watchdog,
 * and releases it after the call, on return and on exception, honouring {@code minHold}. A lease found lost is
 * reported after the call: a WARN, and with {@link OnLocked#THROW} a {@link LockLostException} to the caller.
 */
public final class DistributedLockInterceptor implements MethodInterceptor {

    private static final Logger logger = LoggerFactory.getLogger(DistributedLockInterceptor.class);

    private final LockedMethods lockedMethods;

    private final Supplier<LockManager> lockManager;

    private final BooleanSupplier interruptOnLoss;

    /**
     * Creates the interceptor.
     *
     * @param lockedMethods the parsed declarations
     * @param lockManager the manager leases are taken from, looked up on first use
     * @param interruptOnLoss whether to interrupt a guarded thread whose lease is found lost, read on every call
     */
    public DistributedLockInterceptor(LockedMethods lockedMethods, Supplier<LockManager> lockManager,
            BooleanSupplier interruptOnLoss) {
        this.lockedMethods = lockedMethods;
        this.lockManager = lockManager;
        this.interruptOnLoss = interruptOnLoss;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Method method = invocation.getMethod();
        Class<?> targetClass = target != null ? AopUtils.getTargetClass(target) : method.getDeclaringClass();
        LockedMethod lockedMethod = lockedMethods.find(method, targetClass);
        if (lockedMethod == null) {
            return invocation.proceed();
        }
        String resource = lockedMethods.resourceName(lockedMethod, target, targetClass, invocation.getArguments());
        Lease enclosing = LeaseContextHolder.find(resource);
        if (enclosing != null) {
            return proceedWith(invocation, enclosing);
        }
        Optional<Lease> lease = acquire(lockedMethod, resource);
        if (lease.isEmpty()) {
            return notAcquired(lockedMethod, resource);
        }
        return proceedHolding(invocation, lockedMethod, lease.get());
    }

    private Optional<Lease> acquire(LockedMethod lockedMethod, String resource) {
        LockManager manager = lockManager.get();
        if (lockedMethod.onLocked() != OnLocked.WAIT) {
            return manager.tryAcquire(resource, lockedMethod.ttl(), lockedMethod.resource().text());
        }
        try {
            return manager.acquire(resource, lockedMethod.ttl(), lockedMethod.waitTimeout(),
                    lockedMethod.resource().text());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new LockNotAcquiredException(resource, null, "interrupted while waiting", ex);
        }
    }

    private @Nullable Object notAcquired(LockedMethod lockedMethod, String resource) {
        if (lockedMethod.onLocked() == OnLocked.SKIP) {
            logger.debug("Skipped {}: the lock on '{}' is held by another owner", lockedMethod.description(), resource);
            return lockedMethod.returnsOptional() ? Optional.empty() : null;
        }
        String detail = lockedMethod.onLocked() == OnLocked.WAIT ? "gave up after waiting " + lockedMethod.waitTimeout()
                : "";
        throw new LockNotAcquiredException(resource, holder(resource), detail, null);
    }

    private @Nullable LockRecord holder(String resource) {
        try {
            return lockManager.get().repository().find(resource).orElse(null);
        }
        catch (DataAccessException ex) {
            logger.debug("Could not read the holder of the lock on '{}'", resource, ex);
            return null;
        }
    }

    private static @Nullable Object proceedWith(MethodInvocation invocation, Lease enclosing) throws Throwable {
        LeaseContextHolder.Frame previous = LeaseContextHolder.push(enclosing);
        try {
            return invocation.proceed();
        }
        finally {
            LeaseContextHolder.restore(previous);
        }
    }

    private @Nullable Object proceedHolding(MethodInvocation invocation, LockedMethod lockedMethod, Lease lease)
            throws Throwable {
        LossInterrupter interrupter = null;
        Object result = null;
        Throwable failure = null;
        LeaseContextHolder.Frame previous = null;
        try {
            if (interruptOnLoss.getAsBoolean()) {
                interrupter = new LossInterrupter(Thread.currentThread());
                lease.onLost(interrupter);
            }
            if (lockedMethod.renew()) {
                lease.keepAlive(lockedMethod.maxHold());
            }
            previous = LeaseContextHolder.push(lease);
            result = invocation.proceed();
        }
        catch (Throwable ex) {
            failure = ex;
        }
        finally {
            LeaseContextHolder.restore(previous);
            if (interrupter != null) {
                interrupter.callEnded();
            }
        }
        LockLostException lost = release(lockedMethod, lease);
        if (lost != null) {
            logger.warn("{} {} after losing its lock (token {}): {}", lockedMethod.description(),
                    failure != null ? "failed" : "returned", lease.token(), lost.getMessage());
            if (failure != null) {
                failure.addSuppressed(lost);
            }
            else if (lockedMethod.onLocked() == OnLocked.THROW) {
                throw lost;
            }
        }
        if (failure != null) {
            throw failure;
        }
        return result;
    }

    /** Releases the lease, watchdog first; returns why it was lost, if it was. */
    private static @Nullable LockLostException release(LockedMethod lockedMethod, Lease lease) {
        try {
            lease.release(lockedMethod.minHold());
        }
        catch (RuntimeException ex) {
            logger.warn("Could not release the lock on '{}' (owner {}) after {}; it expires by itself at {}",
                    lease.resource(), lease.owner(), lockedMethod.description(), lease.expiresAt(), ex);
        }
        if (!lease.isLost()) {
            return null;
        }
        try {
            lease.checkHeld();
            return null;
        }
        catch (LockLostException ex) {
            return ex;
        }
    }

    /**
     * Interrupts the guarded thread when its lease is found lost, but only while the guarded call runs; clears the
     * interrupt it caused when the call ends, so that it does not leak into the caller's next work.
     */
    private static final class LossInterrupter implements LeaseLostListener {

        private final Thread thread;

        private boolean running = true;

        private boolean interrupted;

        LossInterrupter(Thread thread) {
            this.thread = thread;
        }

        @Override
        public synchronized void leaseLost(Lease lease, String reason) {
            if (running) {
                interrupted = true;
                logger.warn("Interrupting {} because its lock on '{}' was lost", thread.getName(), lease.resource());
                thread.interrupt();
            }
        }

        synchronized void callEnded() {
            running = false;
            if (interrupted) {
                Thread.interrupted();
            }
        }
    }
}
