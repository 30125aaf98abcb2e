package io.distlock.spring.aop;

import java.util.List;

import io.distlock.redis.testsupport.TestRedis;

/**
 * The asynchronous {@code @DistributedLock} contract on the Redis store, under a key prefix of its own.
 */
class RedisReactiveDistributedLockContractTests extends ReactiveDistributedLockContractTests {

    private final String prefix = TestRedis.newPrefix();

    @Override
    List<String> storeProperties() {
        TestRedis.assumeAvailable();
        return List.of("distributed-lock.store=redis", "spring.data.redis.host=" + TestRedis.host(),
                "spring.data.redis.port=" + TestRedis.port(), "distributed-lock.redis.key-prefix=" + prefix,
                "spring.datasource.url=jdbc:h2:mem:reactive-redis;DB_CLOSE_DELAY=-1");
    }

    @Override
    void cleanUp() {
        TestRedis.deleteKeys(prefix);
    }
}
