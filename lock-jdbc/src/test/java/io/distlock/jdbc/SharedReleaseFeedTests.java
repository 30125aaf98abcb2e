package io.distlock.jdbc;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.distlock.core.ReleaseFeed;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The feed of releases that every manager on one repository shares: the feed beneath watches a resource exactly while
 * some manager's waiter watches it, whatever the order in which the managers' waiters come and go.
 */
class SharedReleaseFeedTests {

    @Test
    void aWaiterArrivingAsAnotherManagersWaiterLeavesKeepsTheResourceWatched() throws Exception {
        HeldUpFeed beneath = new HeldUpFeed();
        SharedReleaseFeed shared = new SharedReleaseFeed(heard -> beneath);
        ReleaseFeed leaving = shared.subscribe(resource -> { });
        ReleaseFeed arriving = shared.subscribe(resource -> { });
        leaving.watch("job");
        Thread leaver = new Thread(() -> leaving.unwatch("job"), "leaver");
        leaver.start();
        assertThat(beneath.unwatchStarted.await(5, TimeUnit.SECONDS)).as("the last waiter leaves").isTrue();
        Thread arriver = new Thread(() -> arriving.watch("job"), "arriver");
        arriver.start();
        // Either the arrival went through while the leaving waiter's unwatch was under way, or it waits for it.
        await().atMost(Duration.ofSeconds(5)).until(() -> arriver.getState() == Thread.State.BLOCKED
                || arriver.getState() == Thread.State.WAITING || arriver.getState() == Thread.State.TERMINATED);
        beneath.letUnwatchFinish.countDown();
        leaver.join(5000);
        arriver.join(5000);
        assertThat(beneath.watched).as("the arriving manager's waiter still hears of releases").containsExactly("job");
        arriving.unwatch("job");
        assertThat(beneath.watched).isEmpty();
    }

    @Test
    void theFeedBeneathWatchesAResourceWhileAnySubscriberDoes() {
        HeldUpFeed beneath = new HeldUpFeed();
        beneath.letUnwatchFinish.countDown();
        SharedReleaseFeed shared = new SharedReleaseFeed(heard -> beneath);
        ReleaseFeed first = shared.subscribe(resource -> { });
        ReleaseFeed second = shared.subscribe(resource -> { });
        first.watch("job");
        second.watch("job");
        first.watch("job");
        first.unwatch("job");
        assertThat(beneath.watched).containsExactly("job");
        second.unwatch("job");
        assertThat(beneath.watched).isEmpty();
        first.unwatch("job");
        assertThat(beneath.watched).isEmpty();
    }

    /** A feed beneath whose unwatch is held up until the test lets it finish. */
    private static final class HeldUpFeed implements ReleaseFeed {

        final Set<String> watched = ConcurrentHashMap.newKeySet();

        final CountDownLatch unwatchStarted = new CountDownLatch(1);

        final CountDownLatch letUnwatchFinish = new CountDownLatch(1);

        @Override
        public void watch(String resource) {
            watched.add(resource);
        }

        @Override
        public void unwatch(String resource) {
            unwatchStarted.countDown();
            try {
                letUnwatchFinish.await(5, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            watched.remove(resource);
        }

        @Override
        public void close() {
        }
    }
}
