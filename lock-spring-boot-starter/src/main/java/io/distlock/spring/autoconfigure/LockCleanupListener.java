package io.distlock.spring.autoconfigure;

/**
 * Told how many rows of expired locks each scheduled clean-up deleted ({@code distributed-lock.cleanup.*}), on the
 * replica that ran it. Listener beans are called in their order, on the clean-up's own thread; the Micrometer
 * counter {@code distributed.lock.cleanup.deleted} is one.
 */
@FunctionalInterface
public interface LockCleanupListener {

    /**
     * Called after a clean-up ran.
     *
     * @param rows how many rows it deleted, possibly zero
     */
    void deleted(int rows);
}
