package io.distlock.benchmarks;

import java.util.concurrent.locks.Lock;

import javax.sql.DataSource;

import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * Spring Integration: {@link JdbcLockRegistry} over {@link DefaultLockRepository}, wired as its Spring context would
 * (its own client id, a {@link DataSourceTransactionManager}); a cycle is {@code obtain(name).tryLock()} then
 * {@code unlock()}.
 */
final class JdbcLockRegistryClient implements LockClient {

    private final DefaultLockRepository repository;

    private final JdbcLockRegistry registry;

    JdbcLockRegistryClient(DataSource dataSource) {
        this.repository = repository(dataSource);
        this.registry = new JdbcLockRegistry(repository, TTL);
    }

    /**
     * A started repository on the benchmark's table, with a client id of its own.
     *
     * @param dataSource the pool
     * @return the repository; stop it when done
     */
    static DefaultLockRepository repository(DataSource dataSource) {
        DefaultLockRepository repository = new DefaultLockRepository(dataSource);
        repository.setPrefix(BenchSchema.SPRING_INTEGRATION_PREFIX);
        repository.setTransactionManager(new DataSourceTransactionManager(dataSource));
        repository.afterPropertiesSet();
        repository.afterSingletonsInstantiated();
        repository.start();
        return repository;
    }

    @Override
    public boolean cycle(String resource) {
        Lock lock = registry.obtain(resource);
        if (!lock.tryLock()) {
            return false;
        }
        lock.unlock();
        return true;
    }

    @Override
    public void close() {
        repository.stop();
    }
}
