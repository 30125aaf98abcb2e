package io.distlock.benchmarks;

import java.time.Duration;

/**
 * One node's handle on a lock implementation: what the benchmark calls in its loop. Each benchmark thread opens its
 * own client, as if it were a separate application instance sharing the database.
 */
public interface LockClient extends AutoCloseable {

    /** The lease every cycle asks for: long enough never to expire during a cycle. */
    Duration TTL = Duration.ofSeconds(30);

    /**
     * Takes the lock on {@code resource} without waiting and, when it was taken, gives it back at once.
     *
     * @param resource the resource to lock
     * @return whether the lock was taken
     */
    boolean cycle(String resource);

    @Override
    default void close() {
    }
}
