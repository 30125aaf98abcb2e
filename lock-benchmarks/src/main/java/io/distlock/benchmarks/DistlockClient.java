package io.distlock.benchmarks;

import javax.sql.DataSource;

import io.distlock.core.LockManager;
import io.distlock.core.LockOutcome;
import io.distlock.core.LockRequest;
import io.distlock.core.jdbc.JdbcLockRepository;
import io.distlock.testsupport.TestDatabase;

/**
 * distlock: {@link LockManager#runLocked} with an empty callback and no renewal (acquire, then release), database
 * time.
 */
final class DistlockClient implements LockClient {

    private final LockManager manager;

    DistlockClient(TestDatabase db, DataSource dataSource) {
        JdbcLockRepository repository = JdbcLockRepository.builder(dataSource)
                .tableName(BenchSchema.DISTLOCK_TABLE)
                .dialect(db.dialect())
                .build();
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
