package io.distlock.core;

/**
 * Tells a {@link LockManager} of releases of the locks its threads wait for, made anywhere (in other processes too),
 * so that a waiter tries again at once instead of at its next poll. A shortcut for latency only: waiters keep polling
 * with backoff whatever a feed tells or misses, so a feed that loses a release costs time, never safety. Opened by
 * {@link ReleaseFeeds#openReleaseFeed}; a store that cannot tell of releases gives {@link #NONE}.
 */
public interface ReleaseFeed extends AutoCloseable {

    /** A feed that tells nothing: waiters only poll (and are woken by releases of their own manager). */
    ReleaseFeed NONE = new ReleaseFeed() {

        @Override
        public void watch(String resource) {
        }

        @Override
        public void unwatch(String resource) {
        }

        @Override
        public void close() {
        }
    };

    /**
     * Starts telling of releases of a resource: its first waiter starts waiting. Must not block: a feed that needs
     * a connection opens it in the background.
     *
     * @param resource the resource
     */
    void watch(String resource);

    /**
     * Stops telling of releases of a resource: its last waiter stopped waiting.
     *
     * @param resource the resource
     */
    void unwatch(String resource);

    /**
     * Stops the feed and gives back what it holds; the manager closes it when it is closed.
     */
    @Override
    void close();
}
