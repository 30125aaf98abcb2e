package io.distlock.jdbc;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Consumer;
import java.util.function.Function;

import io.distlock.core.ReleaseFeed;
import org.jspecify.annotations.Nullable;

/**
 * One feed of releases per repository, shared by every {@link io.distlock.core.LockManager} on it, so that a process
 * listens on one connection however many managers it runs: each manager subscribes with the resources its threads
 * wait for, the shared feed watches a resource while any subscriber does, and tells each release to the subscribers
 * watching that resource. The feed beneath opens when the first subscriber subscribes and closes when the last one
 * closes.
 */
final class SharedReleaseFeed {

    private final Function<Consumer<String>, ReleaseFeed> opener;

    private final Set<Subscriber> subscribers = new CopyOnWriteArraySet<>();

    /** How many subscribers watch each resource. */
    private final Map<String, Integer> watchers = new ConcurrentHashMap<>();

    /** Guarded by {@code this}. */
    private @Nullable ReleaseFeed feed;

    /**
     * @param opener opens the feed beneath, given what to tell of each release it hears
     */
    SharedReleaseFeed(Function<Consumer<String>, ReleaseFeed> opener) {
        this.opener = opener;
    }

    /**
     * Subscribes a manager.
     *
     * @param listener told of releases of the resources the subscriber watches
     * @return the subscriber's own feed; closing it ends the subscription
     */
    ReleaseFeed subscribe(Consumer<String> listener) {
        Subscriber subscriber = new Subscriber(listener);
        synchronized (this) {
            subscribers.add(subscriber);
            if (feed == null) {
                feed = opener.apply(this::heard);
            }
        }
        return subscriber;
    }

    private void heard(String resource) {
        for (Subscriber subscriber : subscribers) {
            if (subscriber.watched.contains(resource)) {
                subscriber.listener.accept(resource);
            }
        }
    }

    private synchronized @Nullable ReleaseFeed feed() {
        return feed;
    }

    /** One manager's subscription. */
    private final class Subscriber implements ReleaseFeed {

        private final Consumer<String> listener;

        private final Set<String> watched = ConcurrentHashMap.newKeySet();

        private Subscriber(Consumer<String> listener) {
            this.listener = listener;
        }

        @Override
        public void watch(String resource) {
            if (watched.add(resource) && watchers.merge(resource, 1, Integer::sum) == 1) {
                ReleaseFeed beneath = feed();
                if (beneath != null) {
                    beneath.watch(resource);
                }
            }
        }

        @Override
        public void unwatch(String resource) {
            if (watched.remove(resource)
                    && watchers.computeIfPresent(resource, (key, count) -> count > 1 ? count - 1 : null) == null) {
                ReleaseFeed beneath = feed();
                if (beneath != null) {
                    beneath.unwatch(resource);
                }
            }
        }

        @Override
        public void close() {
            watched.forEach(this::unwatch);
            ReleaseFeed last = null;
            synchronized (SharedReleaseFeed.this) {
                if (subscribers.remove(this) && subscribers.isEmpty()) {
                    last = feed;
                    feed = null;
                }
            }
            if (last != null) {
                last.close();
            }
        }
    }
}
