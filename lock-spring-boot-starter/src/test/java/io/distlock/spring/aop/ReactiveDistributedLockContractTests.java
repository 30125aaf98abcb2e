package io.distlock.spring.aop;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.distlock.core.ForcedRelease;
import io.distlock.core.Lease;
import io.distlock.core.LockLostException;
import io.distlock.core.LockManager;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.spring.LockNotAcquiredException;
import io.reactivex.rxjava3.core.Single;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What {@code @DistributedLock} guarantees for asynchronous results, on a real store: one subclass per store. The
 * lock is held until a {@code Mono}, a {@code Flux} or a {@code CompletableFuture} completes, renewed meanwhile, and
 * released exactly once on completion, error or cancellation; SKIP, THROW and WAIT act through the result. Another
 * replica is a second {@link LockManager} on the same store, with owners of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ReactiveDistributedLockContractTests {

    private ConfigurableApplicationContext context;

    private ReactiveJobs jobs;

    private ReactiveJobs.Works works;

    private LockRepository repository;

    private LockManager otherReplica;

    /**
     * The properties that put the application on the store under test.
     *
     * @return {@code key=value} pairs
     */
    abstract List<String> storeProperties();

    /** Removes what the store's properties made, after the tests. */
    void cleanUp() {
    }

    @BeforeAll
    void startApplication() {
        context = new SpringApplicationBuilder(ReactiveApplication.class).web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF).logStartupInfo(false)
                .properties(storeProperties().toArray(String[]::new)).run();
        jobs = context.getBean(ReactiveJobs.class);
        works = context.getBean(ReactiveJobs.Works.class);
        repository = context.getBean(LockRepository.class);
        otherReplica = LockManager.builder(repository).verifySchema(false).build();
    }

    @AfterAll
    void stopApplication() {
        if (otherReplica != null) {
            otherReplica.close();
        }
        if (context != null) {
            context.close();
        }
        cleanUp();
    }

    private static String resource() {
        return "reactive:" + UUID.randomUUID();
    }

    /** Whether the other replica is refused the lock now (a lease it gets is given back at once). */
    private boolean refusedElsewhere(String resource) {
        Optional<Lease> lease = otherReplica.tryAcquire(resource, Duration.ofSeconds(1));
        lease.ifPresent(Lease::release);
        return lease.isEmpty();
    }

    private Lease holdElsewhere(String resource) {
        return otherReplica.tryAcquire(resource, Duration.ofSeconds(30)).orElseThrow();
    }

    private void awaitFree(String resource) {
        await().atMost(Duration.ofSeconds(5)).until(() -> !refusedElsewhere(resource));
    }

    @Test
    void aMonoWhoseWorkOutlivesSeveralTtlsKeepsItsLockAndAnotherReplicaIsRefusedUntilItCompletes() throws Exception {
        String resource = resource();
        CompletableFuture<String> result = jobs.monoSkip(resource).toFuture();
        await().atMost(Duration.ofSeconds(10)).until(() -> repository.find(resource).isPresent());
        long token = repository.find(resource).map(LockRecord::token).orElseThrow();
        // Three and a half one-second TTLs: renewed by the watchdog, refused to the other replica throughout.
        await().during(Duration.ofMillis(3500)).atMost(Duration.ofSeconds(6)).pollInterval(Duration.ofMillis(200))
                .until(() -> refusedElsewhere(resource));
        assertThat(result).as("still running").isNotDone();
        assertThat(works.assembledUnder.get(resource).token()).as("CurrentLease while the Mono was built")
                .isEqualTo(token);
        works.until(resource).tryEmitValue("done");
        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("done under token " + token);
        awaitFree(resource);
    }

    @Test
    void theLockIsTakenOnSubscriptionNotWhenTheMonoIsMade() {
        String resource = resource();
        Mono<String> mono = jobs.monoSkip(resource);
        assertThat(repository.find(resource)).as("nothing taken before subscription").isEmpty();
        assertThat(works.assembledUnder).as("the method not called yet").doesNotContainKey(resource);
        Disposable subscription = mono.subscribe();
        await().atMost(Duration.ofSeconds(10)).until(() -> repository.find(resource).isPresent());
        subscription.dispose();
        awaitFree(resource);
    }

    @Test
    void disposingAMonoReleasesItsLockAtOnce() {
        String resource = resource();
        Disposable subscription = jobs.monoLong(resource).subscribe();
        await().atMost(Duration.ofSeconds(10)).until(() -> repository.find(resource).isPresent());
        subscription.dispose();
        // The TTL is 30 seconds: free within a few means it was released, not left to expire.
        awaitFree(resource);
        assertThat(otherReplica.activeLeases()).isEmpty();
    }

    @Test
    void anErrorReleasesTheLockAndReachesTheSubscriber() {
        String resource = resource();
        assertThatThrownBy(() -> jobs.failsAfter(resource, Duration.ofMillis(1500)).block(Duration.ofSeconds(20)))
                .isInstanceOf(IllegalStateException.class).hasMessage("the work failed");
        awaitFree(resource);
    }

    @Test
    void monoSkipsWhenTheLockIsHeldElsewhere() {
        String resource = resource();
        Lease held = holdElsewhere(resource);
        try {
            assertThat(jobs.monoSkip(resource).blockOptional(Duration.ofSeconds(10))).isEmpty();
            assertThat(works.assembledUnder).as("the method did not run").doesNotContainKey(resource);
        }
        finally {
            held.release();
        }
    }

    @Test
    void monoThrowFailsWithLockNotAcquiredNamingTheHolder() {
        String resource = resource();
        Lease held = holdElsewhere(resource);
        try {
            assertThatThrownBy(() -> jobs.monoThrow(resource).block(Duration.ofSeconds(10)))
                    .isInstanceOf(LockNotAcquiredException.class).hasMessageContaining(resource)
                    .hasMessageContaining("token " + held.token());
        }
        finally {
            held.release();
        }
    }

    @Test
    void monoWaitRunsOnceTheOtherReplicaReleases() throws Exception {
        String resource = resource();
        Lease held = holdElsewhere(resource);
        works.until(resource).tryEmitValue("done");
        CompletableFuture<String> result = jobs.monoWait(resource).toFuture();
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> !result.isDone());
        held.release();
        assertThat(result.get(10, TimeUnit.SECONDS)).startsWith("done under token ");
    }

    @Test
    void fluxHoldsTheLockUntilItCompletesAndSkipsThrowsOrWaitsWhenHeld() throws Exception {
        String resource = resource();
        CompletableFuture<List<String>> result = jobs.fluxSkip(resource).collectList().toFuture();
        await().atMost(Duration.ofSeconds(10)).until(() -> repository.find(resource).isPresent());
        assertThat(refusedElsewhere(resource)).isTrue();
        assertThat(jobs.fluxSkip(resource).collectList().block(Duration.ofSeconds(10))).as("SKIP while held")
                .isEmpty();
        assertThatThrownBy(() -> jobs.fluxThrow(resource).blockLast(Duration.ofSeconds(10)))
                .isInstanceOf(LockNotAcquiredException.class);
        CompletableFuture<List<String>> waiting = jobs.fluxWait(resource).collectList().toFuture();
        works.until(resource).tryEmitValue("done");
        assertThat(result.get(10, TimeUnit.SECONDS)).hasSize(2).startsWith("first");
        assertThat(waiting.get(20, TimeUnit.SECONDS)).as("WAIT, once the first Flux completed").hasSize(2);
        awaitFree(resource);
    }

    @Test
    void aFutureHoldsTheLockUntilItCompletes() throws Exception {
        String resource = resource();
        CompletableFuture<String> result = jobs.futureSkip(resource);
        long token = repository.find(resource).map(LockRecord::token).orElseThrow();
        assertThat(works.assembledUnder.get(resource).token()).as("CurrentLease in the method").isEqualTo(token);
        await().during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(200))
                .until(() -> refusedElsewhere(resource));
        assertThat(result).isNotDone();
        works.future(resource).complete("done");
        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("done");
        assertThat(refusedElsewhere(resource)).as("released before the caller's future completed").isFalse();
    }

    @Test
    void aFutureSkipsThrowsOrWaitsWhenTheLockIsHeldElsewhere() throws Exception {
        String resource = resource();
        Lease held = holdElsewhere(resource);
        works.future(resource).complete("done");
        assertThat(jobs.futureSkip(resource).get(10, TimeUnit.SECONDS)).as("SKIP").isNull();
        assertThatThrownBy(() -> jobs.futureThrow(resource).get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(LockNotAcquiredException.class)
                .hasMessageContaining(resource);
        CompletableFuture<CompletableFuture<String>> waiting = CompletableFuture.supplyAsync(
                () -> jobs.futureWait(resource));
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> !waiting.isDone());
        held.release();
        assertThat(waiting.get(10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS)).as("WAIT").isEqualTo("done");
    }

    @Test
    void aCompletionStageHoldsTheLockUntilItCompletesAndFailsWhenTheLockIsHeldElsewhere() throws Exception {
        String resource = resource();
        CompletableFuture<String> result = jobs.stageSkip(resource).toCompletableFuture();
        assertThat(refusedElsewhere(resource)).as("held while the stage runs").isTrue();
        assertThat(result).isNotDone();
        works.future(resource).complete("done");
        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("done");
        assertThat(refusedElsewhere(resource)).as("released once the stage completed").isFalse();
        Lease held = holdElsewhere(resource);
        try {
            assertThat(jobs.stageSkip(resource).toCompletableFuture().get(10, TimeUnit.SECONDS)).as("SKIP").isNull();
            assertThatThrownBy(() -> jobs.stageThrow(resource).toCompletableFuture().get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(LockNotAcquiredException.class);
        }
        finally {
            held.release();
        }
    }

    @Test
    void anRxJavaSingleTakesTheLockOnSubscriptionAndHoldsItUntilItCompletes() throws Exception {
        String resource = resource();
        Single<String> single = jobs.singleThrow(resource);
        assertThat(repository.find(resource)).as("nothing taken before the subscription").isEmpty();
        CompletableFuture<String> result = single.toCompletionStage().toCompletableFuture();
        await().atMost(Duration.ofSeconds(5)).until(() -> repository.find(resource).isPresent());
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(200))
                .until(() -> refusedElsewhere(resource));
        assertThat(result).as("the TTL of 1 s passed, renewed").isNotDone();
        works.future(resource).complete("done");
        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("done");
        awaitFree(resource);
        Lease held = holdElsewhere(resource);
        try {
            assertThatThrownBy(() -> jobs.singleThrow(resource).toCompletionStage().toCompletableFuture()
                    .get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class).cause()
                    .isInstanceOf(LockNotAcquiredException.class).hasMessageContaining(resource);
        }
        finally {
            held.release();
        }
    }

    @Test
    void anRxJavaMaybeCompletesEmptyWhenTheLockIsHeldElsewhere() {
        String resource = resource();
        works.future(resource).complete("done");
        assertThat(jobs.maybeSkip(resource).timeout(10, TimeUnit.SECONDS).blockingGet()).isEqualTo("done");
        Lease held = holdElsewhere(resource);
        try {
            assertThat(jobs.maybeSkip(resource).isEmpty().timeout(10, TimeUnit.SECONDS).blockingGet()).as("SKIP")
                    .isTrue();
        }
        finally {
            held.release();
        }
    }

    @Test
    void cancellingTheFutureReleasesItsLockAtOnce() {
        String resource = resource();
        CompletableFuture<String> result = jobs.futureLong(resource);
        assertThat(refusedElsewhere(resource)).isTrue();
        result.cancel(true);
        awaitFree(resource);
        assertThat(works.future(resource)).as("the method's own future, cancelled").isCancelled();
    }

    @Test
    void aMonoSubscribedInsideTheWorkOfTheSameResourceJoinsItsLease() {
        String resource = resource();
        String result = jobs.nestedOnTheSameResource(resource).block(Duration.ofSeconds(10));
        assertThat(result).startsWith("outer(inner under token ");
        awaitFree(resource);
    }

    @Test
    void aLeaseLostWhileTheMonoRunsFailsItWithThrow() {
        String resource = resource();
        CompletableFuture<String> result = jobs.monoThrow(resource).toFuture();
        await().atMost(Duration.ofSeconds(10)).until(() -> repository.find(resource).isPresent());
        long token = repository.find(resource).orElseThrow().token();
        ForcedRelease.of(repository).forceRelease(resource, token);
        Lease thief = holdElsewhere(resource);
        try {
            // The watchdog's next renewal finds it held by another owner.
            await().atMost(Duration.ofSeconds(5)).until(() -> context.getBean(LockManager.class).lostLeaseCount() > 0);
            works.until(resource).tryEmitValue("done");
            assertThatThrownBy(() -> result.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(LockLostException.class).hasMessageContaining(resource);
        }
        finally {
            thief.release();
        }
    }

    @Test
    void aLeaseLostWhileTheMonoRunsStopsItsWorkAndFailsItAtOnce() {
        String resource = resource();
        CompletableFuture<String> result = jobs.monoThrow(resource).toFuture();
        Lease thief = stealWhenHeld(resource);
        try {
            // The work never ends by itself: the loss alone ends the result.
            assertThatThrownBy(() -> result.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(LockLostException.class).hasMessageContaining(resource);
            assertThat(works.cancelled).as("the work's subscription, cancelled").contains(resource);
        }
        finally {
            thief.release();
        }
    }

    @Test
    void aLeaseLostWhileTheFluxRunsStopsItsWorkAndSkipCompletesWithWhatItGave() throws Exception {
        String resource = resource();
        List<String> values = new java.util.concurrent.CopyOnWriteArrayList<>();
        CompletableFuture<Void> result = jobs.fluxSkip(resource).doOnNext(values::add).then().toFuture();
        Lease thief = stealWhenHeld(resource);
        try {
            result.get(10, TimeUnit.SECONDS);
            assertThat(values).containsExactly("first");
            assertThat(works.cancelled).as("the work's subscription, cancelled").contains(resource);
        }
        finally {
            thief.release();
        }
    }

    @Test
    void aLeaseLostWhileTheFutureRunsFailsItAtOnceAndCancelsTheMethodsFuture() {
        String resource = resource();
        CompletableFuture<String> result = jobs.futureThrow(resource);
        Lease thief = stealWhenHeld(resource);
        try {
            assertThatThrownBy(() -> result.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(LockLostException.class).hasMessageContaining(resource);
            // The result fails first; the method's own future is cancelled right after, on the thread that told
            // the loss.
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(works.future(resource))
                    .as("the method's own future, cancelled").isCancelled());
        }
        finally {
            thief.release();
        }
    }

    @Test
    void cancellingRightAfterSubscribingNeverLeavesTheLockHeld() {
        LockManager lockManager = context.getBean(LockManager.class);
        List<String> resources = new java.util.ArrayList<>();
        for (int round = 0; round < 300; round++) {
            String resource = resource();
            resources.add(resource);
            Disposable subscription = jobs.monoLong(resource).subscribe();
            // Cancels at every moment of the acquire: before it is sent, while it runs, as its lease arrives.
            long until = System.nanoTime() + java.util.concurrent.ThreadLocalRandom.current().nextLong(3_000_000);
            while (System.nanoTime() < until && repository.find(resource).isEmpty()) {
                Thread.onSpinWait();
            }
            subscription.dispose();
        }
        // The TTL is 30 seconds and the watchdog renews what it holds: only releases free them.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(lockManager.activeLeases())
                .filteredOn(lease -> resources.contains(lease.resource())).isEmpty());
        assertThat(resources).allSatisfy(resource -> assertThat(refusedElsewhere(resource)).isFalse());
    }

    @Test
    void twoSubscriptionsToOneMonoEachTakeTheLockAndTheSecondIsRefusedWhileTheFirstHoldsIt() throws Exception {
        String resource = resource();
        Mono<String> mono = jobs.monoThrow(resource);
        CompletableFuture<String> first = mono.toFuture();
        await().atMost(Duration.ofSeconds(10)).until(() -> repository.find(resource).isPresent());
        long firstToken = repository.find(resource).orElseThrow().token();
        assertThatThrownBy(() -> mono.block(Duration.ofSeconds(10))).as("the second subscription, its own acquire")
                .isInstanceOf(LockNotAcquiredException.class);
        works.until(resource).tryEmitValue("done");
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("done under token " + firstToken);
        awaitFree(resource);
        assertThat(mono.block(Duration.ofSeconds(10))).as("a third, once the first released")
                .startsWith("done under token ").isNotEqualTo("done under token " + firstToken);
        awaitFree(resource);
    }

    @Test
    void aFluxSubscribedAgainTakesAndReleasesTheLockOncePerSubscription() {
        String resource = resource();
        works.until(resource).tryEmitValue("done");
        List<String> values = jobs.fluxThrow(resource).repeat(2).collectList().block(Duration.ofSeconds(20));
        assertThat(values).hasSize(6);
        assertThat(values.stream().filter(value -> value.startsWith("done under token ")).distinct())
                .as("a lease of its own for each of the three subscriptions").hasSize(3);
        awaitFree(resource);
        assertThat(context.getBean(LockManager.class).activeLeases())
                .filteredOn(lease -> lease.resource().equals(resource)).isEmpty();
    }

    @Test
    void aResourceThatEvaluatesToNullFailsTheResultInsteadOfTheCall() {
        Mono<String> mono = jobs.monoSkip(null);
        assertThatThrownBy(() -> mono.block(Duration.ofSeconds(10))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> jobs.fluxSkip(null).blockLast(Duration.ofSeconds(10)))
                .isInstanceOf(IllegalArgumentException.class);
        CompletableFuture<String> future = jobs.futureSkip(null);
        assertThatThrownBy(() -> future.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(IllegalArgumentException.class);
    }

    /** Waits until the guarded call holds the lock, then takes it from under it as an expiry and a takeover would. */
    private Lease stealWhenHeld(String resource) {
        await().atMost(Duration.ofSeconds(10)).until(() -> repository.find(resource).isPresent());
        ForcedRelease.of(repository).forceRelease(resource, repository.find(resource).orElseThrow().token());
        return holdElsewhere(resource);
    }

    /** The application: every auto-configuration, the guarded beans. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class ReactiveApplication {

        @Bean
        ReactiveJobs.Inner reactiveInner() {
            return new ReactiveJobs.Inner();
        }

        @Bean
        ReactiveJobs.Works works() {
            return new ReactiveJobs.Works();
        }

        @Bean
        ReactiveJobs reactiveJobs(ReactiveJobs.Works works, ReactiveJobs.Inner inner) {
            return new ReactiveJobs(works, inner);
        }
    }
}
