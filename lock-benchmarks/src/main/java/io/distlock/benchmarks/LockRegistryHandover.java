package io.distlock.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

/**
 * Spring Integration in the handover scenario: {@code obtain(resource).lock()} and {@code unlock()} on a
 * {@code JdbcLockRegistry} or {@code RedisLockRegistry}. Shared, all threads use one registry, which queues them on a
 * local lock per key before the store; remote, every thread has a registry (and client id) of its own, and a waiter
 * retries the store every {@code idleBetweenTries} (100 ms by default).
 */
final class LockRegistryHandover implements HandoverSubject {

    private final List<IntegrationRegistry> registries = new ArrayList<>();

    private final List<HandoverLock> locks = new ArrayList<>();

    LockRegistryHandover(Supplier<IntegrationRegistry> registries, int threads, boolean shared) {
        for (int i = 0; i < threads; i++) {
            if (shared && i > 0) {
                locks.add(locks.get(0));
                continue;
            }
            IntegrationRegistry registry = registries.get();
            this.registries.add(registry);
            locks.add((resource, maxWait) -> {
                Lock lock = registry.registry().obtain(resource);
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
        registries.forEach(registry -> registry.stop().run());
    }
}
