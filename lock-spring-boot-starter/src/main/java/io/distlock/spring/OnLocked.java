package io.distlock.spring;

/**
 * What a {@link DistributedLock} method does when another owner holds its lock.
 */
public enum OnLocked {

    /**
     * The method is not run; the call returns {@code null}, or {@link java.util.Optional#empty()} for an
     * {@code Optional} return type. Not allowed on methods returning a primitive. An asynchronous result is empty:
     * a future completed with {@code null}, a {@code Mono} or {@code Flux} that completes without a value, a suspend
     * function that returns {@code null}.
     */
    SKIP,

    /**
     * The method is not run; the call throws {@link LockNotAcquiredException} naming the resource and, if it can be
     * read, the current holder and its expiry. A lease found lost when the method returns is raised to the caller as
     * {@link io.distlock.core.LockLostException}. An asynchronous result fails with these exceptions instead.
     */
    THROW,

    /**
     * The call retries with exponential backoff and jitter for up to
     * {@link DistributedLock#waitTimeout()}, then gives up as {@link #THROW} does; a lease found lost when the
     * method returns is raised to the caller as {@link io.distlock.core.LockLostException}, as with {@link #THROW}.
     * A reactive result waits without holding a thread: its attempts run on Reactor's bounded-elastic scheduler.
     */
    WAIT
}
