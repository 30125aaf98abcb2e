package io.distlock.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;

import javax.sql.DataSource;

import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;

/**
 * Spring Integration in the handover scenario: {@code JdbcLockRegistry.obtain(resource).lock()} and
 * {@code unlock()}. Shared, all threads use one registry, which queues them on a local lock per key before the
 * database; remote, every thread has a registry (and client id) of its own, and a waiter retries the database every
 * {@code idleBetweenTries} (100 ms by default).
 */
final class JdbcLockRegistryHandover implements HandoverSubject {

    private final List<DefaultLockRepository> repositories = new ArrayList<>();

    private final List<HandoverLock> locks = new ArrayList<>();

    JdbcLockRegistryHandover(DataSource dataSource, int threads, boolean shared) {
        for (int i = 0; i < threads; i++) {
            if (shared && i > 0) {
                locks.add(locks.get(0));
                continue;
            }
            DefaultLockRepository repository = JdbcLockRegistryClient.repository(dataSource);
            repositories.add(repository);
            JdbcLockRegistry registry = new JdbcLockRegistry(repository, LockClient.TTL);
            locks.add((resource, maxWait) -> {
                Lock lock = registry.obtain(resource);
                lock.lock();
                return lock::unlock;
            });
        }
    }

    @Override
    public HandoverLock lockFor(int thread) {
        return locks.get(thread);
    }

    @Override
    public void close() {
        repositories.forEach(DefaultLockRepository::stop);
    }
}
