package io.distlock.benchmarks;

import java.util.concurrent.locks.Lock;

/**
 * Spring Integration: a {@code JdbcLockRegistry} or {@code RedisLockRegistry} of the node's own; a cycle is
 * {@code obtain(name).tryLock()} then {@code unlock()}.
 */
final class LockRegistryClient implements LockClient {

    private final IntegrationRegistry registry;

    LockRegistryClient(IntegrationRegistry registry) {
        this.registry = registry;
    }

    @Override
    public boolean cycle(String resource) {
        Lock lock = registry.registry().obtain(resource);
        if (!lock.tryLock()) {
            return false;
        }
        lock.unlock();
        return true;
    }

    @Override
    public void close() {
        registry.stop().run();
    }
}
