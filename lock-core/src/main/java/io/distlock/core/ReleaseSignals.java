package io.distlock.core;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Wakes the threads of one manager that wait for a lock when the lock is released, so that a waiter takes it at once
 * instead of at its next poll: when the manager's own lease on it is released, and when the store's
 * {@link ReleaseFeed} tells of a release elsewhere (PostgreSQL's notifications). The feed is told which resources
 * have waiters: the first waiter of a resource starts watching it, the last one stops. Waiters keep polling with
 * backoff whatever wakes them, so a release nobody tells of is found at the next poll.
 */
final class ReleaseSignals implements AutoCloseable {

    private final Map<String, Signal> signals = new ConcurrentHashMap<>();

    private final ReleaseFeed feed;

    /**
     * Creates the signals of one manager, with the store's feed of releases.
     *
     * @param repository the store
     */
    ReleaseSignals(LockRepository repository) {
        this.feed = repository.openReleaseFeed(this::released);
    }

    /**
     * Starts waiting for releases of a resource; close the returned waiter when done.
     *
     * @param resource the resource
     * @return the waiter
     */
    Waiter waitFor(String resource) {
        Signal signal = signals.compute(resource, (key, existing) -> {
            Signal s = existing;
            if (s == null) {
                s = new Signal();
                feed.watch(key);
            }
            s.waiters++;
            return s;
        });
        return new Waiter(resource, signal);
    }

    /**
     * Tells the waiters of a resource that the lock was released, here or elsewhere.
     *
     * @param resource the resource
     */
    void released(String resource) {
        Signal signal = signals.get(resource);
        if (signal != null) {
            synchronized (signal) {
                signal.generation++;
                signal.notifyAll();
            }
        }
    }

    /** One resource's release count and waiters. */
    private static final class Signal {

        long generation;

        int waiters;
    }

    /** A thread waiting for releases of one resource. */
    final class Waiter implements AutoCloseable {

        private final String resource;

        private final Signal signal;

        private long seen;

        private Waiter(String resource, Signal signal) {
            this.resource = resource;
            this.signal = signal;
            synchronized (signal) {
                this.seen = signal.generation;
            }
        }

        /**
         * Remembers the releases so far: call before an attempt, so that a release during it is not missed.
         */
        void mark() {
            synchronized (signal) {
                seen = signal.generation;
            }
        }

        /**
         * Waits until a release since the last {@link #mark()}, or the timeout.
         *
         * @param nanos how long to wait at most
         * @throws InterruptedException when interrupted
         */
        void await(long nanos) throws InterruptedException {
            long deadline = System.nanoTime() + nanos;
            synchronized (signal) {
                for (long left = nanos; signal.generation == seen && left > 0; left = deadline - System.nanoTime()) {
                    TimeUnit.NANOSECONDS.timedWait(signal, left);
                }
            }
        }

        @Override
        public void close() {
            signals.computeIfPresent(resource, (key, s) -> {
                if (--s.waiters > 0) {
                    return s;
                }
                feed.unwatch(key);
                return null;
            });
        }
    }

    /**
     * Closes the feed: waiters from then on only poll.
     */
    @Override
    public void close() {
        feed.close();
    }
}
