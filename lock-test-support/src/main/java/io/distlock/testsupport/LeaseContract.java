package io.distlock.testsupport;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.core.BatchRenewal;
import io.distlock.core.ForcedRelease;
import io.distlock.core.Lease;
import io.distlock.core.LeaseKey;
import io.distlock.core.LeaseWatchdog;
import io.distlock.core.LockLostException;
import io.distlock.core.LockManager;
import io.distlock.core.LockOutcome;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.LockRequest;
import io.distlock.core.LockResult;
import io.distlock.core.WatchdogSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Leases, the watchdog and the manager on a real store, written once for every store: keep-alive through work
 * longer than the lease, loss detected within one renewal interval, a lease run out after its maximum hold told
 * once, renewal racing release, batched renewal rounds, no renewal after release, and a ShedLock-style fuzz test of
 * a non-atomic critical section. Each store runs it in a subclass that opens the store, says how to end a lease
 * behind its holder's back and counts the store's round trips, and adds what only that store does.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class LeaseContract {

    private LockRepository repository;

    private LockManager locks;

    /**
     * Opens the store under test, once before the tests.
     *
     * @return its repository, counting its round trips
     */
    protected abstract LockRepository openStore();

    /** Removes what {@link #openStore()} made, once after the tests, even when it did not finish. */
    protected abstract void closeStore();

    /**
     * Ends a live lease in the store behind its holder's back, as if it had expired.
     *
     * @param resource the lease's resource
     * @throws Exception when the store cannot be reached
     */
    protected abstract void forceExpiry(String resource) throws Exception;

    /** Starts counting the store's round trips (statements, scripts) from zero. */
    protected abstract void resetRoundTrips();

    /**
     * The round trips since {@link #resetRoundTrips()}.
     *
     * @return how many
     */
    protected abstract int roundTrips();

    /**
     * The store's name in the figures the tests print.
     *
     * @return for example {@code h2} or {@code redis}
     */
    protected abstract String storeName();

    /**
     * What the store's round trips are, in the figures the tests print.
     *
     * @return for example {@code statements} or {@code scripts}
     */
    protected abstract String roundTripUnit();

    @BeforeAll
    void openManager() {
        repository = openStore();
        locks = LockManager.builder(repository).build();
    }

    @AfterAll
    void closeManager() {
        try {
            if (locks != null) {
                locks.close();
            }
        }
        finally {
            closeStore();
        }
    }

    /**
     * The store under test.
     *
     * @return what {@link #openStore()} returned
     */
    protected LockRepository repository() {
        return repository;
    }

    /**
     * The manager the tests share, with its own watchdog.
     *
     * @return the manager
     */
    protected LockManager locks() {
        return locks;
    }

    /**
     * A resource name of its own.
     *
     * @return the name
     */
    protected static String resource() {
        return "lease:" + UUID.randomUUID();
    }

    @Test
    void watchdogKeepsAOneSecondLeaseHeldThroughFiveSecondsOfWork() {
        String resource = resource();
        Lease lease = locks.tryAcquire(resource, Duration.ofSeconds(1)).orElseThrow().keepAlive(Duration.ofMinutes(1));
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(7)).pollInterval(Duration.ofMillis(100))
                .until(() -> repository.find(resource).map(LockRecord::owner).orElse("").equals(lease.owner()));
        assertThat(lease.isLost()).isFalse();
        assertThat(lease.expiresAt()).isAfter(lease.acquiredAt().plusSeconds(4));
        assertThat(lease.release()).isEqualTo(LockResult.APPLIED);
        assertThat(repository.find(resource)).isEmpty();
    }

    @Test
    void runLockedKeepsTheLeaseAliveThroughWorkLongerThanItsTtl() throws InterruptedException {
        String resource = resource();
        LockOutcome<Long> outcome = locks.runLocked(LockRequest.of(resource, Duration.ofSeconds(1)), lease -> {
            Thread.sleep(2500);
            lease.checkHeld();
            return lease.token();
        });
        assertThat(outcome.status()).isEqualTo(LockOutcome.Status.RAN);
        assertThat(outcome.value()).isPositive();
        assertThat(repository.find(resource)).isEmpty();
    }

    @Test
    void anAsynchronousAcquireWaitsWithoutAThreadAndTakesTheLockWhenItIsReleased() throws Exception {
        String resource = resource();
        Lease holder = locks.tryAcquire(resource, Duration.ofSeconds(10)).orElseThrow();
        AtomicInteger attempts = new AtomicInteger();
        ExecutorService statements = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<Optional<Lease>> waiting = locks.acquireAsync(
                    LockRequest.of(resource, Duration.ofSeconds(1)).withMaxWait(Duration.ofSeconds(20)), task -> {
                        attempts.incrementAndGet();
                        statements.execute(task);
                    });
            await().atMost(Duration.ofSeconds(10)).until(() -> attempts.get() >= 3);
            assertThat(waiting).as("waiting while the lock is held").isNotDone();
            holder.release();
            Lease lease = waiting.get(10, TimeUnit.SECONDS).orElseThrow();
            assertThat(lease.token()).isGreaterThan(holder.token());
            // Kept alive as the request says: still held after several of its one-second TTLs.
            await().pollDelay(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(5))
                    .until(() -> repository.find(resource).map(LockRecord::owner).orElse("").equals(lease.owner()));
            assertThat(lease.isLost()).isFalse();
            assertThat(lease.release()).isEqualTo(LockResult.APPLIED);
        }
        finally {
            statements.shutdownNow();
        }
    }

    @Test
    void anAsynchronousAcquireGivesUpEmptyAfterItsWait() throws Exception {
        String resource = resource();
        Lease holder = locks.tryAcquire(resource, Duration.ofSeconds(10)).orElseThrow();
        try {
            assertThat(locks.acquireAsync(LockRequest.of(resource, Duration.ofSeconds(1))
                    .withMaxWait(Duration.ofMillis(300)), Runnable::run).get(10, TimeUnit.SECONDS)).isEmpty();
            assertThat(locks.acquireAsync(LockRequest.of(resource, Duration.ofSeconds(1)), Runnable::run)
                    .get(10, TimeUnit.SECONDS)).as("without a wait: one attempt").isEmpty();
        }
        finally {
            holder.release();
        }
    }

    @Test
    void aLeaseThatACancelledAsynchronousAcquireTakesIsReleasedAtOnce() throws Exception {
        String resource = resource();
        CountDownLatch cancelled = new CountDownLatch(1);
        ExecutorService statements = Executors.newSingleThreadExecutor();
        try {
            // The attempt is in flight (held back) when the caller cancels.
            CompletableFuture<Optional<Lease>> acquire = locks.acquireAsync(LockRequest.of(resource,
                    Duration.ofMinutes(5)), task -> statements.execute(() -> {
                        try {
                            cancelled.await();
                        }
                        catch (InterruptedException ex) {
                            Thread.currentThread().interrupt();
                        }
                        task.run();
                    }));
            acquire.cancel(false);
            cancelled.countDown();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                Optional<Lease> next = locks.tryAcquire(resource, Duration.ofSeconds(5));
                assertThat(next).as("free again long before the 5-minute TTL").isPresent();
                next.get().release();
            });
        }
        finally {
            statements.shutdownNow();
        }
    }

    @Test
    void leaseStolenAfterForcedExpiryIsReportedLostWithinOneRenewalInterval() throws Exception {
        String resource = resource();
        CountDownLatch lost = new CountDownLatch(1);
        AtomicReference<String> reason = new AtomicReference<>();
        Lease lease = locks.tryAcquire(resource, Duration.ofSeconds(3)).orElseThrow()
                .onLost((l, why) -> {
                    reason.set(why);
                    lost.countDown();
                })
                .keepAlive(Duration.ofMinutes(1));
        forceExpiry(resource);
        Lease thief = locks.tryAcquire(resource, Duration.ofMinutes(1)).orElseThrow();
        long interval = Duration.ofSeconds(3).toMillis() / 3;
        assertThat(lost.await(interval + 1000, TimeUnit.MILLISECONDS)).as("lost within one renewal interval").isTrue();
        assertThat(reason.get()).contains("held by another owner");
        assertThat(lease.isLost()).isTrue();
        assertThatThrownBy(lease::checkHeld).isInstanceOf(LockLostException.class).hasMessageContaining(resource);
        assertThat(thief.token()).isGreaterThan(lease.token());
        assertThat(lease.release()).as("known lost: released at once, without a round trip")
                .isEqualTo(LockResult.NOT_FOUND);
        assertThat(repository.find(resource).orElseThrow().owner()).isEqualTo(thief.owner());
        thief.release();
    }

    @Test
    void aForcedReleaseIsToldToTheHolderAtItsNextRenewalAndTheNextHolderHasALargerToken() throws Exception {
        String resource = resource();
        CountDownLatch lost = new CountDownLatch(1);
        AtomicReference<String> reason = new AtomicReference<>();
        Lease lease = locks.tryAcquire(resource, Duration.ofSeconds(3)).orElseThrow()
                .onLost((l, why) -> {
                    reason.set(why);
                    lost.countDown();
                })
                .keepAlive(Duration.ofMinutes(1));
        assertThat(ForcedRelease.of(repository).forceRelease(resource, lease.token())).isEqualTo(LockResult.APPLIED);
        Lease next = locks.tryAcquire(resource, Duration.ofMinutes(1)).orElseThrow();
        assertThat(next.token()).isGreaterThan(lease.token());
        long interval = Duration.ofSeconds(3).toMillis() / 3;
        assertThat(lost.await(interval + 1000, TimeUnit.MILLISECONDS)).as("told lost at its next renewal").isTrue();
        assertThat(reason.get()).contains("held by another owner");
        assertThat(repository.find(resource).orElseThrow().owner()).isEqualTo(next.owner());
        next.release();
    }

    @Test
    void aLeaseThatRunsOutAfterItsMaximumHoldIsToldLostOnceAndCounted() throws Exception {
        String resource = resource();
        try (LockManager manager = LockManager.builder(repository).build()) {
            CountDownLatch lost = new CountDownLatch(1);
            AtomicInteger told = new AtomicInteger();
            AtomicReference<String> reason = new AtomicReference<>();
            Lease lease = manager.tryAcquire(resource, Duration.ofMillis(600)).orElseThrow().onLost((l, why) -> {
                told.incrementAndGet();
                reason.set(why);
                lost.countDown();
            }).keepAlive(Duration.ofMillis(900));
            assertThat(lost.await(10, TimeUnit.SECONDS)).as("told when the lease ran out after maxHold").isTrue();
            assertThat(reason.get()).contains("maximum hold time of PT0.9S");
            assertThat(lease.lostReason()).contains(reason.get());
            assertThat(manager.lostLeaseCount()).isEqualTo(1);
            // Told at the local deadline, which errs early: the store frees the lock a round trip's latency later.
            await().atMost(Duration.ofSeconds(5)).until(() -> manager.tryAcquire(resource, Duration.ofMinutes(1))
                    .isPresent());
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> told.get() == 1);
        }
    }

    @Test
    void aManualRenewalRacingTheReleaseNeverRevivesTheReleasedLock() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 20; round++) {
                String resource = resource();
                Lease lease = locks.acquire(LockRequest.of(resource, Duration.ofMinutes(1))
                        .withMinHold(Duration.ofMillis(200)).withoutRenewal()).orElseThrow();
                CyclicBarrier start = new CyclicBarrier(2);
                Future<?> renewing = pool.submit(() -> {
                    start.await();
                    try {
                        lease.renew(Duration.ofMinutes(1));
                    }
                    catch (IllegalStateException released) {
                        // the release came first
                    }
                    return null;
                });
                Future<?> releasing = pool.submit(() -> {
                    start.await();
                    return lease.release();
                });
                renewing.get(30, TimeUnit.SECONDS);
                releasing.get(30, TimeUnit.SECONDS);
                Instant keptUntil = lease.acquiredAt().plusMillis(200);
                assertThat(repository.find(resource).map(LockRecord::expiresAt).orElse(keptUntil))
                        .as("round %d: the released lock is held no longer than its minimum hold", round)
                        .isBeforeOrEqualTo(keptUntil);
            }
        }
        finally {
            pool.shutdownNow();
        }
    }

    @Test
    void tenThousandLeasesAreRenewedInAtMostTwentyRoundTripsARound() throws Exception {
        Duration ttl = Duration.ofSeconds(16);
        List<Lease> leases = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (LeaseWatchdog watchdog = new LeaseWatchdog(repository, new WatchdogSettings(1, 0.5));
                LockManager manager = LockManager.builder(repository).watchdog(watchdog).build()) {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 1250; i++) {
                        leases.add(manager.tryAcquire(resource(), ttl).orElseThrow());
                    }
                }));
            }
            for (Future<?> future : futures) {
                future.get(2, TimeUnit.MINUTES);
            }
            leases.forEach(lease -> lease.keepAlive(Duration.ofMinutes(5)));
            // The first renewals follow the acquisition order; once every lease was renewed, rounds are aligned.
            awaitEveryLeaseRenewed(leases);
            resetRoundTrips();
            awaitEveryLeaseRenewed(leases);
            assertThat(leases).hasSize(10_000).noneMatch(Lease::isLost);
            System.out.printf("WATCHDOG db=%s leases=10000 %s_per_round=%d%n", storeName(), roundTripUnit(),
                    roundTrips());
            assertThat(roundTrips()).as("%s for one round renewing 10,000 leases", roundTripUnit()).isBetween(1, 20);
        }
        finally {
            pool.shutdownNow();
            repository.capability(BatchRenewal.class).orElseThrow().renewAll(
                    leases.stream().map(l -> new LeaseKey(l.resource(), l.owner())).toList(),
                    Duration.ofMillis(1));
        }
    }

    private static void awaitEveryLeaseRenewed(List<Lease> leases) {
        Map<Lease, Instant> before = new ConcurrentHashMap<>();
        for (Lease lease : leases) {
            before.put(lease, lease.expiresAt());
        }
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(200))
                .until(() -> leases.stream().allMatch(l -> l.expiresAt().isAfter(before.get(l))));
    }

    @Test
    void watchdogNeverRenewsAReleasedLease() {
        List<Lease> leases = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            // An acquire that took its whole TTL on a busy machine hands out no lease: that one is left out.
            locks.tryAcquire(resource(), Duration.ofMillis(150))
                    .ifPresent(lease -> leases.add(lease.keepAlive(Duration.ofMinutes(1))));
        }
        assertThat(leases).isNotEmpty();
        for (Lease lease : leases) {
            assertThat(lease.release()).isIn(LockResult.APPLIED, LockResult.NOT_FOUND);
        }
        await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(2))
                .until(() -> leases.stream().allMatch(l -> repository.find(l.resource()).isEmpty()));
        assertThat(locks.watchdog().watchedCount()).isZero();
    }

    @Test
    void eightThreadsTakingTwoLocksGuardANonAtomicCounterExactly() throws Exception {
        String[] resources = {resource(), resource()};
        int[] counters = new int[2];
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 100; i++) {
                        int which = i % 2;
                        try (Lease lease = locks.acquire(resources[which], Duration.ofSeconds(30), Duration.ofMinutes(2))
                                .orElseThrow()) {
                            if (which == 0 && inside.incrementAndGet() > 1) {
                                overlaps.incrementAndGet();
                            }
                            int read = counters[which];
                            Thread.sleep(1);
                            counters[which] = read + 1;
                            if (which == 0) {
                                inside.decrementAndGet();
                            }
                            lease.checkHeld();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get(5, TimeUnit.MINUTES);
            }
        }
        finally {
            pool.shutdownNow();
        }
        assertThat(overlaps.get()).isZero();
        assertThat(counters).containsExactly(400, 400);
    }
}
