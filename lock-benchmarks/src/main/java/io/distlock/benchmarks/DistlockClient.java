package io.distlock.benchmarks;

import io.distlock.core.LockManager;
import io.distlock.core.LockOutcome;
import io.distlock.core.LockRepository;
import io.distlock.core.LockRequest;

/**
 * distlock: {@link LockManager#runLocked} with an empty callback and no renewal (acquire, then release), on the
 * store's clock (the database's or the Redis server's).
 */
final class DistlockClient implements LockClient {

    private final LockManager manager;

    DistlockClient(LockRepository repository) {
        this.manager = LockManager.builder(repository).build();
    }

    @Override
    public boolean cycle(String resource) {
        LockOutcome<Boolean> outcome = manager.runLocked(LockRequest.of(resource, TTL).withoutRenewal(),
                lease -> Boolean.TRUE);
        if (outcome.status() == LockOutcome.Status.LOST) {
            throw new IllegalStateException("distlock lost the lease on '" + resource + "': " + outcome.loss());
        }
        return outcome.ran();
    }

    @Override
    public void close() {
        manager.close();
    }
}
