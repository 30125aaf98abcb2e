package io.distlock.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.LockRepository;
import io.distlock.core.LockRequest;

/**
 * distlock in the handover scenario: {@code LockManager.acquire(LockRequest.of(resource, 30 s).withMaxWait(…))},
 * the lease kept alive by the watchdog as by default, and {@code Lease.release()}. Shared, all threads use one
 * manager, whose release wakes its own waiters at once; remote, every thread has a manager (and repository) of its
 * own on the same store, so a waiter learns of a release as a waiter on another replica does: by the store's
 * notification where it sends one (PostgreSQL), else by polling.
 */
final class DistlockHandover implements HandoverSubject {

    private final List<LockManager> managers = new ArrayList<>();

    private final List<HandoverLock> locks = new ArrayList<>();

    /**
     * Sets the managers up.
     *
     * @param repositories makes one repository on the store per manager
     * @param threads how many threads will wait
     * @param shared whether the threads share one manager
     */
    DistlockHandover(Supplier<LockRepository> repositories, int threads, boolean shared) {
        for (int i = 0; i < threads; i++) {
            if (shared && i > 0) {
                locks.add(locks.get(0));
                continue;
            }
            LockManager manager = LockManager.builder(repositories.get()).build();
            managers.add(manager);
            locks.add((resource, maxWait) -> {
                Optional<Lease> lease = manager.acquire(LockRequest.of(resource, LockClient.TTL).withMaxWait(maxWait));
                return lease.<HandoverLock.Held>map(held -> held::release).orElse(null);
            });
        }
    }

    @Override
    public HandoverLock lockFor(int thread) {
        return locks.get(thread);
    }

    @Override
    public void close() {
        managers.forEach(LockManager::close);
    }
}
