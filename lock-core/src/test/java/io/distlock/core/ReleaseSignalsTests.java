package io.distlock.core;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a manager's release signals use the store's feed: which resources they watch, which words of the feed wake
 * waiters, and that the echo of the manager's own release does not wake them twice.
 */
class ReleaseSignalsTests {

    private final RecordingFeed feed = new RecordingFeed();

    /** An echo window no test run outlasts. */
    private final ReleaseSignals signals = new ReleaseSignals(repositoryWith(feed), TimeUnit.HOURS.toNanos(1));

    @Test
    void theFirstWaiterOfAResourceWatchesItAndTheLastOneStops() {
        ReleaseSignals.Waiter first = signals.waitFor("a");
        ReleaseSignals.Waiter second = signals.waitFor("a");
        ReleaseSignals.Waiter other = signals.waitFor("b");
        first.close();
        assertThat(feed.calls).containsExactly("watch a", "watch b");
        second.close();
        other.close();
        assertThat(feed.calls).containsExactly("watch a", "watch b", "unwatch a", "unwatch b");
        signals.close();
        assertThat(feed.calls).endsWith("close");
    }

    @Test
    void aReleaseTheFeedTellsOfWakesTheWaitersOfThatResourceOnly() throws InterruptedException {
        try (ReleaseSignals.Waiter a = signals.waitFor("a"); ReleaseSignals.Waiter b = signals.waitFor("b")) {
            feed.listener.accept("a");
            assertThat(a.await(0)).isTrue();
            assertThat(b.await(0)).isFalse();
        }
    }

    @Test
    void theEchoOfTheManagersOwnReleaseDoesNotWakeItsWaitersAgainButTheNextReleaseDoes() throws InterruptedException {
        try (ReleaseSignals.Waiter waiter = signals.waitFor("a")) {
            signals.releasing("a");
            signals.released("a");
            assertThat(waiter.await(0)).isTrue();
            waiter.mark();
            feed.listener.accept("a");
            assertThat(waiter.await(0)).isFalse();
            feed.listener.accept("a");
            assertThat(waiter.await(0)).isTrue();
        }
    }

    @Test
    void anEchoThatComesBeforeTheReleaseStatementAnswersWakesNobodyTwice() throws InterruptedException {
        try (ReleaseSignals.Waiter waiter = signals.waitFor("a")) {
            signals.releasing("a");
            feed.listener.accept("a");
            assertThat(waiter.await(0)).isFalse();
            signals.released("a");
            assertThat(waiter.await(0)).isTrue();
            waiter.mark();
            feed.listener.accept("a");
            assertThat(waiter.await(0)).isTrue();
        }
    }

    private static LockRepository repositoryWith(RecordingFeed feed) {
        return (LockRepository) Proxy.newProxyInstance(LockRepository.class.getClassLoader(),
                new Class<?>[] {LockRepository.class, ReleaseFeeds.class}, (proxy, method, args) -> {
                    if (method.getName().equals("capability")) {
                        Class<?> type = (Class<?>) args[0];
                        return type.isInstance(proxy) ? Optional.of(proxy) : Optional.empty();
                    }
                    if (method.getName().equals("openReleaseFeed")) {
                        @SuppressWarnings("unchecked")
                        Consumer<String> listener = (Consumer<String>) args[0];
                        feed.listener = listener;
                        return feed;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    /** A feed that records what it is told. */
    private static final class RecordingFeed implements ReleaseFeed {

        final List<String> calls = new ArrayList<>();

        Consumer<String> listener;

        @Override
        public void watch(String resource) {
            calls.add("watch " + resource);
        }

        @Override
        public void unwatch(String resource) {
            calls.add("unwatch " + resource);
        }

        @Override
        public void close() {
            calls.add("close");
        }
    }
}
