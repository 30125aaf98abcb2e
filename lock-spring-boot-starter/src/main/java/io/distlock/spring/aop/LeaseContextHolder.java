package io.distlock.spring.aop;

import io.distlock.core.Lease;
import org.jspecify.annotations.Nullable;

/**
 * The leases of the guarded calls running on each thread, innermost first. The {@link DistributedLockInterceptor}
 * binds a lease for the duration of a call; applications read it through {@link io.distlock.spring.CurrentLease}.
 */
public final class LeaseContextHolder {

    private static final ThreadLocal<@Nullable Frame> frames = new ThreadLocal<>();

    private LeaseContextHolder() {
    }

    /**
     * Returns the lease of the innermost guarded call on this thread.
     *
     * @return the lease, or {@code null} outside a guarded call
     */
    public static @Nullable Lease current() {
        Frame frame = frames.get();
        return frame != null ? frame.lease() : null;
    }

    /**
     * Finds the unreleased lease an enclosing guarded call on this thread holds on a resource.
     *
     * @param resource the resource name
     * @return the lease, or {@code null} when no enclosing call holds that resource
     */
    static @Nullable Lease find(String resource) {
        for (Frame frame = frames.get(); frame != null; frame = frame.parent()) {
            // A lost outer lease is not joined: the nested call must take the lock anew, or skip or throw.
            if (frame.lease().resource().equals(resource) && !frame.lease().isReleased() && !frame.lease().isLost()) {
                return frame.lease();
            }
        }
        return null;
    }

    /**
     * Binds a lease to this thread until {@link #restore} is called with the returned frame.
     *
     * @param lease the lease of the call that starts
     * @return the frame that was current before, to restore when the call ends
     */
    static @Nullable Frame push(Lease lease) {
        Frame previous = frames.get();
        frames.set(new Frame(lease, previous));
        return previous;
    }

    /**
     * Restores the binding that was current before a {@link #push}, removing the thread-local when none was.
     *
     * @param previous what {@link #push} returned
     */
    static void restore(@Nullable Frame previous) {
        if (previous == null) {
            frames.remove();
        }
        else {
            frames.set(previous);
        }
    }

    /**
     * One guarded call's lease and the enclosing call's frame.
     *
     * @param lease the lease bound by the call
     * @param parent the enclosing call's frame, or {@code null} for the outermost call
     */
    record Frame(Lease lease, @Nullable Frame parent) {
    }
}
