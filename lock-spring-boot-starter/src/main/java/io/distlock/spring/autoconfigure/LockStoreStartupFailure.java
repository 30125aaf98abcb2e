package io.distlock.spring.autoconfigure;

/**
 * Tells what a failure of the lock manager's start-up check means for a store, so that the start fails saying, for
 * instance, which database could not be reached. A store's auto-configuration contributes one; without one the
 * failure is reported as it is.
 */
@FunctionalInterface
public interface LockStoreStartupFailure {

    /**
     * Explains a failure of the lock manager's start-up check.
     *
     * @param failure what the check threw
     * @return the exception to fail the start with: {@code failure} itself when there is nothing to add
     */
    RuntimeException explain(RuntimeException failure);
}
