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

    /**
     * How long after a release of its own the manager takes the feed's next word on that resource for the echo of
     * that release, which woke its waiters already.
     */
    private static final long ECHO_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final Map<String, Signal> signals = new ConcurrentHashMap<>();

    private final ReleaseFeed feed;

    private final long echoWindowNanos;

    /**
     * Creates the signals of one manager, with the store's feed of releases.
     *
     * @param repository the store
     */
    ReleaseSignals(LockRepository repository) {
        this(repository, ECHO_WINDOW_NANOS);
    }

    /**
     * Creates the signals of one manager, with the store's feed of releases and an echo window of its own.
     *
     * @param repository the store
     * @param echoWindowNanos how long after a release of its own the feed's next word is taken for its echo
     */
    ReleaseSignals(LockRepository repository, long echoWindowNanos) {
        this.echoWindowNanos = echoWindowNanos;
        this.feed = ReleaseFeeds.open(repository, this::heard);
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
     * Takes the feed's next word on a resource, within the echo window, for the echo of the release this manager is
     * about to send: notifications come in commit order, so the first one after that release is that release's own,
     * when it notifies at all. Called before the statement, since the echo may come before the statement's answer.
     *
     * @param resource the resource
     */
    void releasing(String resource) {
        Signal signal = signals.get(resource);
        if (signal != null) {
            synchronized (signal) {
                signal.echoBefore = System.nanoTime() + echoWindowNanos;
                signal.echoDue = true;
            }
        }
    }

    /**
     * Tells the waiters of a resource that this manager released the lock.
     *
     * @param resource the resource
     */
    void released(String resource) {
        Signal signal = signals.get(resource);
        if (signal != null) {
            synchronized (signal) {
                wake(signal);
            }
        }
    }

    /**
     * Tells the waiters of a resource that the feed heard of a release, unless it is the echo of this manager's own
     * release ({@link #releasing}), whose {@link #released} wakes them. A release of its own that notified nothing
     * (a minimum hold still ahead, a refused release, the listener down) can make the manager take a release
     * elsewhere within the echo window for its echo; its waiters then find that release at their next poll.
     *
     * @param resource the resource
     */
    void heard(String resource) {
        Signal signal = signals.get(resource);
        if (signal != null) {
            synchronized (signal) {
                boolean echo = signal.echoDue && System.nanoTime() - signal.echoBefore < 0;
                signal.echoDue = false;
                if (!echo) {
                    wake(signal);
                }
            }
        }
    }

    private static void wake(Signal signal) {
        signal.generation++;
        signal.notifyAll();
    }

    /** One resource's release count and waiters. */
    private static final class Signal {

        long generation;

        /** Whether the feed's next word is likely the echo of this manager's release. */
        boolean echoDue;

        /** Until when, by {@link System#nanoTime()}, that echo is expected. */
        long echoBefore;

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
         * @param nanos how long to wait at most; 0 only tells
         * @return whether a release was told since the last mark
         * @throws InterruptedException when interrupted
         */
        boolean await(long nanos) throws InterruptedException {
            long deadline = System.nanoTime() + nanos;
            synchronized (signal) {
                for (long left = nanos; signal.generation == seen && left > 0; left = deadline - System.nanoTime()) {
                    TimeUnit.NANOSECONDS.timedWait(signal, left);
                }
                return signal.generation != seen;
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
