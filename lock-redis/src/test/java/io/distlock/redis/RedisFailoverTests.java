package io.distlock.redis;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.LockRecord;
import io.distlock.core.LockResult;
import io.distlock.redis.testsupport.PrivateRedisReplicaSet;
import io.distlock.redis.testsupport.RedisAdmin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Redis store on a replicated Redis of the test's own (a primary, a replica and a Sentinel, reached through
 * Spring Data Redis's Sentinel configuration): with one replica to acknowledge, a frozen replica (SIGSTOP) turns
 * acquisitions into "not acquired" within the acknowledgement timeout with no key left behind; a live one lets them
 * through; and after the primary is killed and Sentinel promotes the replica, a lock acknowledged before the kill is
 * still held on the new primary, nobody else gets it, and the lock manager carries on there. Runs only with
 * {@code -Predis-failover} (tag {@code redis-failover}).
 */
@Tag("redis-failover")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisFailoverTests {

    /** Long enough for a replica on a loaded machine to acknowledge a write, short enough to bound the frozen case. */
    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    private static final Duration TTL = Duration.ofMinutes(2);

    private PrivateRedisReplicaSet redis;

    private LettuceConnectionFactory factory;

    private RedisLockRepository repository;

    @BeforeAll
    void startReplicaSet() {
        redis = PrivateRedisReplicaSet.start();
        factory = redis.connectionFactory(client -> { });
        repository = RedisLockRepository.builder(factory).keyPrefix("failover:").replicasToAcknowledge(1, TIMEOUT)
            .build();
    }

    @BeforeEach
    void rolesSettled() {
        redis.awaitRolesSettled();
    }

    @AfterAll
    void stopReplicaSet() {
        if (factory != null) {
            factory.destroy();
        }
        if (redis != null) {
            redis.close();
        }
    }

    private static String resource() {
        return "job:" + UUID.randomUUID();
    }

    @Test
    void acquisitionsWithTheReplicaFrozenEndWithinTheBoundAsNotAcquiredAndLeaveNoKey() {
        RedisLockRepository observer = RedisLockRepository.builder(factory).keyPrefix("failover:").build();
        redis.replica().freeze();
        try {
            for (int i = 0; i < 5; i++) {
                String resource = resource();
                long start = System.nanoTime();
                assertThat(repository.acquire(resource, "a", TTL)).isEmpty();
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT.plusSeconds(1));
                assertThat(observer.find(resource)).isEmpty();
            }
            String held = resource();
            observer.acquire(held, "a", TTL).orElseThrow();
            assertThat(repository.renew(held, "a", TTL).status()).as("renewal not acknowledged")
                .isEqualTo(LockResult.NOT_FOUND);
            assertThat(observer.find(held)).isEmpty();
        }
        finally {
            redis.replica().thaw();
        }
        redis.awaitReplicaInSync();
    }

    @Test
    void acquisitionsAndRenewalsWithTheReplicaLiveAreAcknowledged() {
        String resource = resource();
        LockRecord acquired = repository.acquire(resource, "a", TTL).orElseThrow();
        assertThat(repository.renew(resource, "a", TTL).status()).isEqualTo(LockResult.APPLIED);
        try (RedisAdmin replica = RedisAdmin.connect("127.0.0.1", redis.replica().port())) {
            assertThat(replica.commands().hget(repository.keys().lockKey(resource), "owner")).isEqualTo("a");
            assertThat(replica.commands().hget(repository.keys().lockKey(resource), "token"))
                .isEqualTo(Long.toString(acquired.token()));
        }
    }

    @Test
    void lockAcknowledgedBeforeTheFailoverIsStillHeldOnThePromotedReplicaAndTheManagerCarriesOn() {
        String resource = resource();
        LockRecord acquired = repository.acquire(resource, "a", TTL).orElseThrow();
        redis.killPrimaryAndAwaitPromotion(Duration.ofSeconds(30));
        try {
            Optional<LockRecord> afterFailover = await("the store reaches the new primary")
                .atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> repository.find(resource),
                        found -> true);
            assertThat(afterFailover).as("the acknowledged lock on the new primary").contains(acquired);
            assertThat(repository.acquire(resource, "b", TTL)).as("no second owner").isEmpty();
        }
        finally {
            redis.rejoinOldPrimary();
        }
        assertThat(repository.renew(resource, "a", TTL).status()).as("renewed, acknowledged by the rejoined replica")
            .isEqualTo(LockResult.APPLIED);
        try (LockManager manager = LockManager.builder(repository).build();
                Lease lease = manager.tryAcquire(resource(), TTL).orElseThrow()) {
            assertThat(lease.token()).isPositive();
        }
    }

    @Test
    void withNoReplicaLeftAfterAFailoverAcquisitionsAreRefusedUntilOneRejoins() {
        redis.killPrimaryAndAwaitPromotion(Duration.ofSeconds(30));
        try {
            String resource = resource();
            Optional<LockRecord> acquired = await("the store reaches the new primary").atMost(Duration.ofSeconds(30))
                .ignoreExceptions().until(() -> repository.acquire(resource, "a", TTL), found -> true);
            assertThat(acquired).as("no replica to acknowledge it").isEmpty();
            assertThat(repository.replication().connectedReplicas()).isZero();
            assertThat(repository.find(resource)).as("given back").isEmpty();
        }
        finally {
            redis.rejoinOldPrimary();
        }
        assertThat(repository.acquire(resource(), "a", TTL)).as("acknowledged by the rejoined replica").isPresent();
    }
}
