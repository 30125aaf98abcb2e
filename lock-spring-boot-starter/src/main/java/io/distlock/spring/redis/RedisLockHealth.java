package io.distlock.spring.redis;

import java.time.Duration;
import java.util.function.BiConsumer;

import io.distlock.core.LockManager;
import io.distlock.redis.RedisLockRepository;
import io.distlock.redis.RedisReplication;

import org.springframework.beans.factory.ObjectProvider;

/**
 * What the Redis store's {@code distributedLock} health indicator checks, apart from the health types of the Spring
 * Boot generation that shows it: the key prefix and lease counts first, so that a DOWN answer shows them too, then a
 * {@code PING}, which throws when Redis does not answer, then the server's replication and whether acquisitions wait
 * for replicas to acknowledge them.
 */
final class RedisLockHealth {

    static final String FAILURE_MESSAGE = "Distributed lock health check failed";

    private RedisLockHealth() {
    }

    static void check(RedisLockRepository repository, ObjectProvider<LockManager> manager,
            BiConsumer<String, Object> detail) {
        detail.accept("store", "redis");
        detail.accept("keyPrefix", repository.keys().prefix());
        manager.ifAvailable(locks -> {
            detail.accept("activeLeases", locks.activeLeases().size());
            detail.accept("lostLeases", locks.lostLeaseCount());
        });
        Duration ping = repository.ping();
        detail.accept("pingMillis", ping.toNanos() / 1_000_000.0);
        RedisReplication replication = repository.replication();
        detail.accept("role", replication.role());
        detail.accept("connectedReplicas", replication.connectedReplicas());
        detail.accept("replicasToAcknowledge", replication.replicasToAcknowledge());
        detail.accept("waitsForReplicas", replication.waitsForReplicas());
        detail.accept("replication", replication.describe());
    }
}
