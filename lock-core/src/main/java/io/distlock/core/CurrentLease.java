package io.distlock.core;

import java.util.Optional;

/**
 * The lease of the guarded work running on the current thread ({@link LockManager#runLocked}, or a
 * {@code @DistributedLock} method): its fencing token, owner, expiry, and whether it is still held. {@code @Scheduled}
 * methods take no parameters, so the lease is bound to the thread for the duration of the call and unbound when the
 * call ends.
 *
 * <pre>{@code
 * @DistributedLock(resource = "ledger")
 * public void append(Entry entry) {
 *     Lease lease = CurrentLease.require();
 *     ledger.write(entry, lease.token());   // fenced write
 *     lease.checkHeld();                     // throws LockLostException once the watchdog found it gone
 * }
 * }</pre>
 *
 * <p>Inside nested guarded calls, the innermost lease is returned; a nested call on the same resource shares its
 * caller's lease. Threads started by the work do not see the lease: hand it to them explicitly.
 */
public final class CurrentLease {

    /**
     * The key of the lease in a reactive context (Reactor's {@code Context}) and in Micrometer's context
     * propagation: guarded reactive work finds its lease there, and with context propagation on
     * ({@code Hooks.enableAutomaticContextPropagation()}, Spring Boot's {@code spring.reactor.context-propagation=auto})
     * {@link #get()} reads it on whatever thread the work runs ({@link LeaseThreadLocalAccessor}).
     */
    public static final String CONTEXT_KEY = "io.distlock.core.CurrentLease";

    private CurrentLease() {
    }

    /**
     * Returns the lease of the guarded work running on this thread.
     *
     * @return the lease, or empty outside guarded work
     */
    public static Optional<Lease> get() {
        return Optional.ofNullable(LeaseScope.current());
    }

    /**
     * Runs work with a lease bound to this thread, as {@link LockManager#runLocked} binds it, restoring what was bound
     * before afterwards: for guarded work that goes on asynchronously, whose synchronous part (the method that builds
     * a {@code Mono}, say) sees its lease so. Neither takes, renews nor releases the lock.
     *
     * @param lease the lease its holder is working under
     * @param work the work
     * @param <T> what the work returns
     * @param <E> what the work may throw
     * @return what the work returned
     * @throws E what the work threw
     */
    public static <T, E extends Throwable> T callWith(Lease lease, LockedWork<T, E> work) throws E {
        return LeaseScope.callWith(java.util.Objects.requireNonNull(lease, "lease"), work);
    }

    /**
     * Returns the lease of the guarded work running on this thread, for code that only ever runs inside it.
     *
     * @return the lease
     * @throws IllegalStateException outside guarded work
     */
    public static Lease require() {
        Lease lease = LeaseScope.current();
        if (lease == null) {
            throw new IllegalStateException("No lease is bound to this thread: CurrentLease is only available while a "
                    + "@DistributedLock method runs (or the work of LockManager.runLocked), on the thread that called it");
        }
        return lease;
    }
}
