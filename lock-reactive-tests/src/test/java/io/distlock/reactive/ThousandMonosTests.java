package io.distlock.reactive;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import io.distlock.core.CurrentLease;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.LockContext;
import io.distlock.spring.OnLocked;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * 1,000 guarded {@code Mono}s subscribed at once on Reactor's non-blocking threads, on 8 resources, each waiting for
 * its lock: under BlockHound (any blocking call on a non-blocking thread fails the call that made it), no two
 * holders of one resource overlap, every call runs, and no store statement ran on a non-blocking thread. With
 * Reactor's automatic context propagation, {@link CurrentLease} reads the lease on whatever thread the work goes on.
 */
class ThousandMonosTests {

    static final Map<String, AtomicInteger> active = new ConcurrentHashMap<>();

    static final AtomicInteger overlaps = new AtomicInteger();

    static final AtomicInteger leaseMismatches = new AtomicInteger();

    @BeforeAll
    static void installBlockHound() {
        BlockHound.install();
        Hooks.enableAutomaticContextPropagation();
    }

    @Test
    void blockHoundIsInstalledAndRefusesABlockingCallOnANonBlockingThread() {
        assertThatThrownBy(() -> Mono.fromRunnable(() -> {
            try {
                Thread.sleep(1);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }).subscribeOn(Schedulers.parallel()).block(Duration.ofSeconds(10))).hasCauseInstanceOf(
                BlockingOperationError.class);
    }

    @ParameterizedTest
    @EnumSource(ReactiveStores.class)
    void aThousandConcurrentMonosOnEightResourcesNeverOverlapAndNeverBlockANonBlockingThread(ReactiveStores store) {
        active.clear();
        overlaps.set(0);
        leaseMismatches.set(0);
        try (ReactiveStores.Application application = store.start(Application.class)) {
            Guarded guarded = application.bean(Guarded.class);
            assertThat(org.springframework.aop.support.AopUtils.isAopProxy(guarded)).as("guarded by a proxy").isTrue();
            String prefix = "thousand:" + store + ":" + System.nanoTime() + ":";
            List<String> results = Flux.fromStream(IntStream.range(0, 1000).boxed())
                    .flatMap(i -> Mono.defer(() -> guarded.work(prefix + (i % 8)))
                            .subscribeOn(Schedulers.parallel()), 1000)
                    .collectList().block(Duration.ofMinutes(4));
            assertThat(results).hasSize(1000).allMatch(result -> result.startsWith("ran under token "));
            assertThat(overlaps).as("holders of one resource at the same time").hasValue(0);
            assertThat(leaseMismatches).as("CurrentLease on another thread, not the context's lease").hasValue(0);
            assertThat(active.values()).allMatch(count -> count.get() == 0);
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

    /** A guarded Mono whose work takes a moment on another thread, counting who holds each resource. */
    public static class Guarded {

        @DistributedLock(resource = "#{#resource}", ttl = "PT10S", onLocked = OnLocked.WAIT, waitTimeout = "PT4M")
        public Mono<String> work(String resource) {
            return LockContext.lease().flatMap(lease -> {
                if (active.computeIfAbsent(resource, key -> new AtomicInteger()).incrementAndGet() > 1) {
                    overlaps.incrementAndGet();
                }
                return Mono.delay(Duration.ofMillis(2)).map(tick -> {
                    // On a parallel thread now: the lease comes through context propagation.
                    if (CurrentLease.get().filter(current -> current.token() == lease.token()).isEmpty()) {
                        leaseMismatches.incrementAndGet();
                    }
                    active.get(resource).decrementAndGet();
                    return "ran under token " + lease.token();
                });
            });
        }
    }
}
