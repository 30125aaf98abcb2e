package io.distlock.spring.redis;

import java.time.Duration;
import java.util.Optional;

import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.LockRecord;
import io.distlock.redis.RedisLockRepository;
import io.distlock.redis.testsupport.PrivateRedisReplicaSet;
import io.distlock.spring.actuate.DistributedLockHealthAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The starter on Spring Boot's own Sentinel settings ({@code spring.data.redis.sentinel.*}) with one replica to
 * acknowledge, on a private primary, replica and Sentinel: the health says the mode and the replica; a frozen replica
 * refuses acquisitions; a lease taken before the primary is killed is still its holder's on the promoted replica, and
 * the application's manager carries on against it. Runs only with {@code -Predis-failover} (tag
 * {@code redis-failover}).
 */
@Tag("redis-failover")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisSentinelEndToEndTests {

    private static final Duration TTL = Duration.ofMinutes(2);

    private PrivateRedisReplicaSet redis;

    private ApplicationContextRunner contextRunner;

    @BeforeAll
    void startReplicaSet() {
        redis = PrivateRedisReplicaSet.start();
        contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
                    DistributedLockRedisAutoConfiguration.class, DistributedLockAutoConfiguration.class,
                    DistributedLockHealthAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.sentinel.master=" + PrivateRedisReplicaSet.MASTER_NAME,
                    "spring.data.redis.sentinel.nodes=127.0.0.1:" + redis.sentinel().port(),
                    "spring.data.redis.timeout=5s", "distributed-lock.redis.key-prefix=sentinel:",
                    "distributed-lock.redis.replicas-to-acknowledge=1",
                    // Long enough for a replica that has just rejoined, on a loaded machine, to acknowledge.
                    "distributed-lock.redis.acknowledgement-timeout=1s");
    }

    @AfterAll
    void stopReplicaSet() {
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void theStoreFollowsASentinelFailoverKeepingEveryAcknowledgedLease() {
        redis.awaitRolesSettled();
        contextRunner.run(context -> {
            assertThat(context).hasNotFailed();
            LockManager locks = context.getBean(LockManager.class);
            RedisLockRepository repository = context.getBean(RedisLockRepository.class);
            Health health = context.getBean("distributedLockHealthIndicator", HealthIndicator.class).health(true);
            assertThat(health.getDetails()).containsEntry("role", "master").containsEntry("connectedReplicas", 1)
                .containsEntry("replicasToAcknowledge", 1).containsEntry("waitsForReplicas", true);

            redis.replica().freeze();
            try {
                assertThat(locks.tryAcquire("report:frozen", TTL)).as("not acknowledged").isEmpty();
                assertThat(repository.find("report:frozen")).isEmpty();
            }
            finally {
                redis.replica().thaw();
            }
            redis.awaitReplicaInSync();

            Lease held = locks.tryAcquire("report:monthly", TTL).orElseThrow();
            redis.killPrimaryAndAwaitPromotion(Duration.ofSeconds(30));
            try {
                Optional<LockRecord> found = await("the application reaches the new primary")
                    .atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .until(() -> repository.find("report:monthly"), record -> true);
                assertThat(found.map(LockRecord::owner)).contains(held.owner());
                assertThat(found.map(LockRecord::token)).contains(held.token());
                assertThat(locks.tryAcquire("report:monthly", TTL)).as("no second owner").isEmpty();
            }
            finally {
                redis.rejoinOldPrimary();
            }
            try (Lease next = locks.tryAcquire("report:weekly", TTL).orElseThrow()) {
                assertThat(next.token()).isPositive();
            }
            held.close();
            assertThat(repository.find("report:monthly")).isEmpty();
        });
    }
}
