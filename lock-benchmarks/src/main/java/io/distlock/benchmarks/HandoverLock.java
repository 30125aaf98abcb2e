package io.distlock.benchmarks;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * One thread's way to wait for a lock in the handover scenario: how the implementation's users wait for a held
 * lock, not a try-once cycle.
 */
interface HandoverLock {

    /**
     * Waits for the lock on {@code resource}.
     *
     * @param resource the resource
     * @param maxWait how long to wait at most, where the implementation lets a wait be bounded
     * @return what gives the lock back, or {@code null} when the wait ran out
     * @throws InterruptedException when the thread is interrupted while waiting
     */
    @Nullable Held lock(String resource, Duration maxWait) throws InterruptedException;

    /** A held lock. */
    @FunctionalInterface
    interface Held {

        /** Gives the lock back. */
        void release();
    }
}
