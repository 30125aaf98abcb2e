package io.distlock.spring;

/**
 * What a {@link DistributedLock} method does when another owner holds its lock.
 */
public enum OnLocked {

    /**
     * The method is not run; the call returns {@code null}, or {@link java.util.Optional#empty()} for an
     * {@code Optional} return type. Not allowed on methods returning a primitive.
     */
    SKIP,

    /**
     * The method is not run; the call throws {@link LockNotAcquiredException} naming the resource and, if it can be
     * read, the current holder and its expiry. A lease found lost when the method returns is raised to the caller as
     * {@link io.distlock.core.LockLostException}.
     */
    THROW,

    /**
     * The call retries with exponential backoff and jitter for up to
     * {@link DistributedLock#waitTimeout()}, then gives up as {@link #THROW} does; a lease found lost when the
     * method returns is raised to the caller as {@link io.distlock.core.LockLostException}, as with {@link #THROW}.
     */
    WAIT
}
