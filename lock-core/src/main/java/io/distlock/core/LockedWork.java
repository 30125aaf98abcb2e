package io.distlock.core;

/**
 * Work that runs while a lock is held, given the lease so that it can pass the fencing token on and check that the
 * lease still holds. It may throw; {@link LockManager#runLocked} releases the lock first and rethrows.
 *
 * @param <T> what the work returns
 * @param <E> what the work may throw
 */
@FunctionalInterface
public interface LockedWork<T, E extends Throwable> {

    /**
     * Runs the work.
     *
     * @param lease the lease held while the work runs
     * @return the work's result, which may be {@code null}
     * @throws E when the work fails
     */
    T run(Lease lease) throws E;
}
