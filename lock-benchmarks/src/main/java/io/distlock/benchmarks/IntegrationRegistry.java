package io.distlock.benchmarks;

import javax.sql.DataSource;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * One of Spring Integration's lock registries, wired as its Spring context would, with what stops it. Every registry
 * has a client id of its own, so that two registries meet only in the store, as two application instances do.
 *
 * @param registry the registry
 * @param stop stops it
 */
record IntegrationRegistry(LockRegistry<?> registry, Runnable stop) {

    /** The registry key of {@link #redis}'s registries, which put it before {@code :<resource>}. */
    static final String REDIS_REGISTRY_KEY = LockStore.REDIS_PREFIX + "registry";

    /**
     * A {@link JdbcLockRegistry} over a started {@link DefaultLockRepository} on the benchmark's table, with a
     * {@link DataSourceTransactionManager}.
     *
     * @param dataSource the pool
     * @return the registry
     */
    static IntegrationRegistry jdbc(DataSource dataSource) {
        DefaultLockRepository repository = new DefaultLockRepository(dataSource);
        repository.setPrefix(BenchSchema.SPRING_INTEGRATION_PREFIX);
        repository.setTransactionManager(new DataSourceTransactionManager(dataSource));
        repository.afterPropertiesSet();
        repository.afterSingletonsInstantiated();
        repository.start();
        return new IntegrationRegistry(new JdbcLockRegistry(repository, LockClient.TTL), repository::stop);
    }

    /**
     * A {@link RedisLockRegistry} in its default mode (a waiter retries every 100 ms) with the cycle's TTL.
     *
     * @param connectionFactory the shared connection factory
     * @return the registry
     */
    static IntegrationRegistry redis(RedisConnectionFactory connectionFactory) {
        RedisLockRegistry registry = new RedisLockRegistry(connectionFactory, REDIS_REGISTRY_KEY,
                LockClient.TTL.toMillis());
        return new IntegrationRegistry(registry, registry::destroy);
    }
}
