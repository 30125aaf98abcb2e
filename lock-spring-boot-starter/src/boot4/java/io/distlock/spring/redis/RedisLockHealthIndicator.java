package io.distlock.spring.redis;

import io.distlock.core.LockManager;
import io.distlock.redis.RedisLockRepository;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * UP when Redis answers a {@code PING} on the lock repository's connections, DOWN with the error otherwise; shows the
 * key prefix, how long the answer took, the leases this process holds and how many it lost since start.
 */
public class RedisLockHealthIndicator extends AbstractHealthIndicator {

    private final RedisLockRepository repository;

    private final ObjectProvider<LockManager> manager;

    /**
     * Creates the indicator.
     *
     * @param repository the Redis lock store
     * @param manager the manager whose leases are counted, if there is one
     */
    public RedisLockHealthIndicator(RedisLockRepository repository, ObjectProvider<LockManager> manager) {
        super(RedisLockHealth.FAILURE_MESSAGE);
        this.repository = repository;
        this.manager = manager;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        RedisLockHealth.check(repository, manager, builder::withDetail);
        builder.up();
    }
}
