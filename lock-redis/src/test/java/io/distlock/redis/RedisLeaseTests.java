package io.distlock.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.core.Lease;
import io.distlock.core.LeaseKey;
import io.distlock.core.LeaseWatchdog;
import io.distlock.core.LockLostException;
import io.distlock.core.LockManager;
import io.distlock.core.LockOutcome;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRequest;
import io.distlock.core.LockResult;
import io.distlock.core.WatchdogSettings;
import io.distlock.redis.testsupport.CountingConnectionFactory;
import io.distlock.redis.testsupport.TestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Leases, the watchdog and the manager on Redis: keep-alive through work longer than the lease, loss detected within
 * one renewal interval when another owner took the lock, renewal rounds in batched scripts, no renewal after
 * release, and a non-atomic critical section guarded exactly by the lock.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisLeaseTests {

    private String prefix;

    private CountingConnectionFactory counting;

    private RedisLockRepository repository;

    private LockManager locks;

    private StringRedisTemplate redis;

    @BeforeAll
    void createManager() {
        TestRedis.assumeAvailable();
        prefix = TestRedis.newPrefix();
        counting = new CountingConnectionFactory(TestRedis.connectionFactory());
        repository = RedisLockRepository.builder(counting.factory()).keyPrefix(prefix).build();
        locks = LockManager.builder(repository).build();
        redis = TestRedis.template();
    }

    @AfterAll
    void deleteKeys() {
        if (locks != null) {
            locks.close();
        }
        if (prefix != null) {
            TestRedis.deleteKeys(prefix);
        }
    }

    private static String resource() {
        return "lease:" + UUID.randomUUID();
    }

    @Test
    void watchdogKeepsAOneSecondLeaseHeldThroughFourSecondsOfWork() {
        String resource = resource();
        Lease lease = locks.tryAcquire(resource, Duration.ofSeconds(1)).orElseThrow().keepAlive(Duration.ofMinutes(1));
        await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6)).pollInterval(Duration.ofMillis(100))
                .until(() -> repository.find(resource).map(LockRecord::owner).orElse("").equals(lease.owner()));
        assertThat(lease.isLost()).isFalse();
        assertThat(lease.expiresAt()).isAfter(lease.acquiredAt().plusSeconds(3));
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
        assertThat(redis.delete(repository.keys().lockKey(resource))).as("forced expiry").isTrue();
        Lease thief = locks.tryAcquire(resource, Duration.ofMinutes(1)).orElseThrow();
        long interval = Duration.ofSeconds(3).toMillis() / 3;
        assertThat(lost.await(interval + 1000, TimeUnit.MILLISECONDS)).as("lost within one renewal interval").isTrue();
        assertThat(reason.get()).contains("expired or held by another owner");
        assertThat(lease.isLost()).isTrue();
        assertThatThrownBy(lease::checkHeld).isInstanceOf(LockLostException.class).hasMessageContaining(resource);
        assertThat(thief.token()).isGreaterThan(lease.token());
        assertThat(lease.release()).as("known lost: released at once").isEqualTo(LockResult.NOT_FOUND);
        assertThat(repository.find(resource).orElseThrow().owner()).isEqualTo(thief.owner());
        thief.release();
    }

    @Test
    void watchdogNeverRenewsAReleasedLease() {
        List<Lease> leases = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            leases.add(locks.tryAcquire(resource(), Duration.ofMillis(150)).orElseThrow().keepAlive(Duration.ofMinutes(1)));
        }
        for (Lease lease : leases) {
            assertThat(lease.release()).isIn(LockResult.APPLIED, LockResult.NOT_FOUND);
        }
        await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(2))
                .until(() -> leases.stream().allMatch(l -> repository.find(l.resource()).isEmpty()));
        assertThat(locks.watchdog().watchedCount()).isZero();
    }

    @Test
    void tenThousandLeasesAreRenewedInAtMostTwentyScriptsARound() throws Exception {
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
            counting.reset();
            awaitEveryLeaseRenewed(leases);
            assertThat(leases).hasSize(10_000).noneMatch(Lease::isLost);
            System.out.printf("WATCHDOG db=redis leases=10000 scripts_per_round=%d%n", counting.scripts());
            assertThat(counting.scripts()).as("scripts for one round renewing 10,000 leases").isBetween(1, 20);
        }
        finally {
            pool.shutdownNow();
            repository.renewAll(leases.stream().map(l -> new LeaseKey(l.resource(), l.owner())).toList(),
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
