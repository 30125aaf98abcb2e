package io.distlock.jdbc;

import java.util.HashMap;
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

    /** How many subscribers watch each resource. Guarded by {@code this}. */
    private final Map<String, Integer> watchers = new HashMap<>();

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

    /**
     * Counts a subscriber more or less watching a resource, and has the feed beneath watch it from the first one on
     * and stop after the last one: counting and telling the feed happen as one step, so that a subscriber leaving as
     * another arrives cannot leave the feed beneath no longer watching a resource that one still waits for.
     */
    private synchronized void changeWatchers(String resource, int change) {
        int before = watchers.getOrDefault(resource, 0);
        int after = before + change;
        if (after > 0) {
            watchers.put(resource, after);
        }
        else {
            watchers.remove(resource);
        }
        if (feed != null && (before == 0) != (after == 0)) {
            if (after > 0) {
                feed.watch(resource);
            }
            else {
                feed.unwatch(resource);
            }
        }
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
            if (watched.add(resource)) {
                changeWatchers(resource, +1);
            }
        }

        @Override
        public void unwatch(String resource) {
            if (watched.remove(resource)) {
                changeWatchers(resource, -1);
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
