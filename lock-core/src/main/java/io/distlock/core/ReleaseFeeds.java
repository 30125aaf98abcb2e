package io.distlock.core;

import java.util.function.Consumer;

/**
 * A store that can tell a {@link LockManager} of releases made by any process (the JDBC store on PostgreSQL), so that
 * its waiters need not wait for their next poll. A store without it leaves waiters to poll.
 */
public interface ReleaseFeeds {

    /**
     * Opens a feed of releases of the locks a manager's threads wait for. Each manager opens one when it is built and
     * closes it when it is closed.
     *
     * @param listener told the resource of every release the feed hears of, for a watched resource, on a thread of
     *     the feed's; must return quickly
     * @return the feed
     */
    ReleaseFeed openReleaseFeed(Consumer<String> listener);

    /**
     * Opens the feed of a store, or {@link ReleaseFeed#NONE} when it cannot tell of releases.
     *
     * @param repository the store
     * @param listener told the resource of every release the feed hears of
     * @return the feed
     */
    static ReleaseFeed open(LockRepository repository, Consumer<String> listener) {
        return repository.capability(ReleaseFeeds.class).map(feeds -> feeds.openReleaseFeed(listener))
                .orElse(ReleaseFeed.NONE);
    }
}
