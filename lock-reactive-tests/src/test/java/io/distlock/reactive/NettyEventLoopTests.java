package io.distlock.reactive;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.distlock.core.LockRepository;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.OnLocked;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoop;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A guarded {@code CompletableFuture} method called on, and completed on, a Netty event loop that is not Reactor's
 * (Lettuce's, a plain Netty server's): under BlockHound, whose Netty integration refuses blocking calls on such
 * threads, neither the acquire nor the release runs there.
 */
class NettyEventLoopTests {

    private static final DefaultEventLoopGroup loops = new DefaultEventLoopGroup(1);

    @BeforeAll
    static void installBlockHound() {
        BlockHound.install();
    }

    @AfterAll
    static void stopLoops() {
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    @Test
    void blockHoundRefusesABlockingCallOnANettyEventLoop() {
        EventLoop loop = loops.next();
        assertThatThrownBy(() -> loop.submit(() -> {
            Thread.sleep(1);
            return null;
        }).get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(BlockingOperationError.class);
    }

    @ParameterizedTest
    @EnumSource(ReactiveStores.class)
    void aFutureCalledAndCompletedOnANettyEventLoopTakesAndReleasesItsLockOffIt(ReactiveStores store)
            throws Exception {
        try (ReactiveStores.Application application = store.start(Application.class)) {
            Guarded guarded = application.bean(Guarded.class);
            LockRepository repository = application.bean(LockRepository.class);
            EventLoop loop = loops.next();
            String resource = "netty:" + store + ":" + System.nanoTime();
            CompletableFuture<String> work = new CompletableFuture<>();
            CompletableFuture<String> result = loop.submit(() -> guarded.later(resource, work))
                    .get(10, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(10)).until(() -> repository.find(resource).isPresent());
            loop.execute(() -> work.complete("done"));
            assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("done");
            await().atMost(Duration.ofSeconds(5)).until(() -> repository.find(resource).isEmpty());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class Application {

        @Bean
        Guarded guarded() {
            return new Guarded();
        }
    }

    /** A guarded future whose work the test completes. */
    public static class Guarded {

        @DistributedLock(resource = "#{#resource}", ttl = "PT10S", onLocked = OnLocked.THROW)
        public CompletableFuture<String> later(String resource, CompletableFuture<String> work) {
            return work;
        }
    }
}
