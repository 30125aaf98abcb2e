package io.distlock.spring;

import java.util.Optional;

import io.distlock.core.Lease;
import io.distlock.spring.aop.LeaseContextHolder;

/**
 * The lease of the {@link DistributedLock} method running on the current thread: its fencing token, owner, expiry,
 * and whether it is still held. {@code @Scheduled} methods take no parameters, so the lease is bound to the thread
 * for the duration of the call and unbound when the call ends.
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
 * <p>Inside nested guarded methods, the innermost lease is returned; a nested method on the same resource shares its
 * caller's lease. Threads started by the method do not see the lease: hand it to them explicitly.
 */
public final class CurrentLease {

    private CurrentLease() {
    }

    /**
     * Returns the lease of the guarded method running on this thread.
     *
     * @return the lease, or empty outside a {@link DistributedLock} method
     */
    public static Optional<Lease> get() {
        return Optional.ofNullable(LeaseContextHolder.current());
    }

    /**
     * Returns the lease of the guarded method running on this thread, for code that only ever runs inside one.
     *
     * @return the lease
     * @throws IllegalStateException outside a {@link DistributedLock} method
     */
    public static Lease require() {
        Lease lease = LeaseContextHolder.current();
        if (lease == null) {
            throw new IllegalStateException("No lease is bound to this thread: CurrentLease is only available while a "
                    + "@DistributedLock method runs, on the thread that called it");
        }
        return lease;
    }
}
