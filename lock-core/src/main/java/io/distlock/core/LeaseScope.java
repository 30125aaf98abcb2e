package io.distlock.core;

import org.jspecify.annotations.Nullable;

/**
 * The leases of the {@link LockManager#runLocked} calls running on each thread, innermost first: what
 * {@link CurrentLease} reads, and how a nested call on the same resource finds the lease to join.
 */
final class LeaseScope {

    private static final ThreadLocal<@Nullable Frame> frames = new ThreadLocal<>();

    private LeaseScope() {
    }

    static @Nullable Lease current() {
        Frame frame = frames.get();
        return frame != null ? frame.lease() : null;
    }

    /**
     * Finds the lease an enclosing call on this thread holds on a resource of the same manager. A released or lost
     * lease is not joined: the nested call must take the lock anew.
     */
    static @Nullable Lease enclosing(LeaseHost host, String resource) {
        for (Frame frame = frames.get(); frame != null; frame = frame.parent()) {
            Lease lease = frame.lease();
            if (lease.host() == host && lease.resource().equals(resource) && !lease.isReleased() && !lease.isLost()) {
                return lease;
            }
        }
        return null;
    }

    /** Runs work with the lease bound to this thread, restoring the enclosing binding afterwards, whatever happens. */
    static <T, E extends Throwable> T callWith(Lease lease, LockedWork<T, E> work) throws E {
        Frame previous = frames.get();
        frames.set(new Frame(lease, previous));
        try {
            return work.run(lease);
        }
        finally {
            if (previous == null) {
                frames.remove();
            }
            else {
                frames.set(previous);
            }
        }
    }

    /** Binds a lease to this thread on top of what is bound, for {@link LeaseThreadLocalAccessor}. */
    static void push(Lease lease) {
        frames.set(new Frame(lease, frames.get()));
    }

    /** Unbinds everything from this thread, for {@link LeaseThreadLocalAccessor}. */
    static void clear() {
        frames.remove();
    }

    /**
     * Undoes a {@link #push}: the binding below it comes back when it is the lease that was bound before, otherwise
     * that lease alone is bound (or nothing, for {@code null}).
     */
    static void restore(@Nullable Lease previous) {
        Frame top = frames.get();
        Frame below = top != null ? top.parent() : null;
        if (below != null && below.lease() == previous) {
            frames.set(below);
        }
        else if (previous != null) {
            frames.set(new Frame(previous, null));
        }
        else {
            frames.remove();
        }
    }

    private record Frame(Lease lease, @Nullable Frame parent) {
    }
}
