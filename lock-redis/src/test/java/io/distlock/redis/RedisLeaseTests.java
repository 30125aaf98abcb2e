package io.distlock.redis;

import io.distlock.core.LockRepository;
import io.distlock.redis.testsupport.CountingConnectionFactory;
import io.distlock.redis.testsupport.TestRedis;
import io.distlock.testsupport.LeaseContract;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lease contract on the real Redis: a lease ended behind its holder's back is a deleted lock key, and a renewal
 * round's round trips are scripts.
 */
class RedisLeaseTests extends LeaseContract {

    private String prefix;

    private CountingConnectionFactory counting;

    private RedisLockRepository repository;

    @Override
    protected LockRepository openStore() {
        TestRedis.assumeAvailable();
        prefix = TestRedis.newPrefix();
        counting = new CountingConnectionFactory(TestRedis.connectionFactory());
        repository = RedisLockRepository.builder(counting.factory()).keyPrefix(prefix).build();
        return repository;
    }

    @Override
    protected void closeStore() {
        if (prefix != null) {
            TestRedis.deleteKeys(prefix);
        }
    }

    @Override
    protected void forceExpiry(String resource) {
        assertThat(TestRedis.template().delete(repository.keys().lockKey(resource))).as("forced expiry").isTrue();
    }

    @Override
    protected void resetRoundTrips() {
        counting.reset();
    }

    @Override
    protected int roundTrips() {
        return counting.scripts();
    }

    @Override
    protected String storeName() {
        return "redis";
    }

    @Override
    protected String roundTripUnit() {
        return "scripts";
    }
}
