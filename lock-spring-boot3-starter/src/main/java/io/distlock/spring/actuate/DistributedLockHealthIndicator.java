package io.distlock.spring.actuate;

import io.distlock.core.LockManager;
import io.distlock.core.LockRepository;

import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * UP when the lock table answers a cheap query within {@link LockTableHealth#DEADLINE}, DOWN with the error or with
 * the lateness otherwise; shows the leases this process holds and how many it lost since start.
 */
public class DistributedLockHealthIndicator extends AbstractHealthIndicator {

    private final LockTableHealth health;

    /**
     * Creates the indicator.
     *
     * @param repository the lock table
     * @param manager the manager whose leases are counted
     */
    public DistributedLockHealthIndicator(LockRepository repository, LockManager manager) {
        super(LockTableHealth.FAILURE_MESSAGE);
        this.health = new LockTableHealth(repository, manager);
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws Exception {
        health.check(builder::withDetail);
        builder.up();
    }
}
