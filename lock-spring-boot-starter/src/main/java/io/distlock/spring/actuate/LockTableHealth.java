package io.distlock.spring.actuate;

import java.util.function.BiConsumer;

import io.distlock.core.LockManager;
import io.distlock.core.LockRepository;

/**
 * What the {@code distributedLock} health indicator checks, apart from the health types of the Spring Boot
 * generation that shows it: the details first, so that a DOWN answer shows them too, then the lock table's cheap
 * query, which throws when the table does not answer.
 */
final class LockTableHealth {

    static final String FAILURE_MESSAGE = "Distributed lock health check failed";

    private LockTableHealth() {
    }

    static void check(LockRepository repository, LockManager manager, BiConsumer<String, Object> detail) {
        detail.accept("activeLeases", manager.activeLeases().size());
        detail.accept("lostLeases", manager.lostLeaseCount());
        repository.verifySchema();
    }
}
