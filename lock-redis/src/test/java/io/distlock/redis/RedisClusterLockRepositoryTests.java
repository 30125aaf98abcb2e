package io.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.distlock.core.LeaseKey;
import io.distlock.core.LockManager;
import io.distlock.core.LockOutcome;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRequest;
import io.distlock.core.LockResult;
import io.distlock.redis.testsupport.CountingConnectionFactory;
import io.distlock.redis.testsupport.PrivateRedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The store on a Redis Cluster of three primaries: each lock's keys share a slot, so every script is accepted; locks
 * spread over the nodes are listed from all of them; batched renewal groups leases by slot; races still have one
 * winner.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisClusterLockRepositoryTests {

    private static final Duration LONG = Duration.ofMinutes(5);

    private PrivateRedisCluster cluster;

    private LettuceConnectionFactory factory;

    private CountingConnectionFactory counting;

    private RedisLockRepository repository;

    @BeforeAll
    void startCluster() {
        cluster = PrivateRedisCluster.start();
        factory = cluster.connectionFactory();
        counting = new CountingConnectionFactory(factory);
        repository = RedisLockRepository.builder(counting.factory()).build();
    }

    @AfterAll
    void stopCluster() {
        if (factory != null) {
            factory.destroy();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String owner() {
        return "owner-" + UUID.randomUUID();
    }

    @Test
    void replicasToAcknowledgeAreRefusedOnAClusterNamingTheProperty() {
        RedisLockRepository waiting = RedisLockRepository.builder(factory)
            .replicasToAcknowledge(1, Duration.ofMillis(100)).build();
        assertThatIllegalStateException().isThrownBy(waiting::verifySchema)
            .withMessageContaining("distributed-lock.redis.replicas-to-acknowledge")
            .withMessageContaining("Redis Cluster");
        assertThatIllegalStateException()
            .isThrownBy(() -> waiting.acquire("cluster:ack", "a", Duration.ofSeconds(10)));
        assertThat(repository.find("cluster:ack")).isEmpty();
    }

    @Test
    void locksSpreadOverEveryNodeAreTakenRenewedListedAndReleased() {
        repository.verifySchema();
        String owner = owner();
        List<LeaseKey> leases = new ArrayList<>();
        Set<Integer> slots = new HashSet<>();
        for (int i = 0; i < 120; i++) {
            String resource = "cluster:" + i + ":" + UUID.randomUUID();
            LockRecord record = repository.acquire(resource, owner, Duration.ofSeconds(20)).orElseThrow();
            assertThat(repository.acquire(resource, owner(), LONG)).isEmpty();
            assertThat(repository.find(resource)).contains(record);
            leases.add(record.key());
            slots.add(ClusterSlotHashUtil.calculateSlot(repository.keys().lockKey(resource)));
        }
        assertThat(repository.findAll()).extracting(LockRecord::key).containsAll(leases);

        assertThat(repository.renewAll(leases, LONG)).hasSize(leases.size());
        counting.reset();
        Map<LeaseKey, LockRecord> renewed = repository.renewAll(leases, LONG);
        assertThat(renewed.keySet()).containsExactlyInAnyOrderElementsOf(leases);
        assertThat(counting.scripts()).as("one script per slot, each node knowing the script by now")
                .isEqualTo(slots.size());

        for (LeaseKey lease : leases) {
            assertThat(repository.release(lease.resource(), lease.owner())).isEqualTo(LockResult.APPLIED);
        }
        assertThat(repository.findAll()).extracting(LockRecord::key).doesNotContainAnyElementsOf(leases);
        LockRecord again = repository.acquire(leases.get(0).resource(), owner(), LONG).orElseThrow();
        assertThat(again.token()).isEqualTo(2);
    }

    @Test
    void sixteenThreadsRacingOnTheClusterGiveOneWinner() throws Exception {
        String resource = "cluster-race:" + UUID.randomUUID();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Optional<LockRecord>>> futures = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                futures.add(pool.submit(() -> {
                    go.await();
                    return repository.acquire(resource, owner(), LONG);
                }));
            }
            go.countDown();
            int winners = 0;
            for (Future<Optional<LockRecord>> future : futures) {
                winners += future.get(30, TimeUnit.SECONDS).isPresent() ? 1 : 0;
            }
            assertThat(winners).isEqualTo(1);
        }
        finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theManagerRunsWorkUnderALockOnTheCluster() throws InterruptedException {
        try (LockManager locks = LockManager.builder(repository).build()) {
            LockOutcome<Long> outcome = locks.runLocked(LockRequest.of("cluster-job", Duration.ofSeconds(1)),
                    lease -> {
                        Thread.sleep(1500);
                        lease.checkHeld();
                        return lease.token();
                    });
            assertThat(outcome.status()).isEqualTo(LockOutcome.Status.RAN);
        }
    }
}
