package io.distlock.benchmarks;

import java.util.Optional;

import javax.sql.DataSource;

import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.LockResult;
import io.distlock.core.jdbc.JdbcLockRepository;

/**
 * distlock: {@link LockManager#tryAcquire} then {@link Lease#release()}, database time, watchdog unused.
 */
final class DistlockClient implements LockClient {

    private final LockManager manager;

    DistlockClient(BenchDatabase db, DataSource dataSource) {
        JdbcLockRepository repository = JdbcLockRepository.builder(dataSource)
                .tableName(BenchSchema.DISTLOCK_TABLE)
                .dialect(db.dialect())
                .build();
        this.manager = LockManager.builder(repository).build();
    }

    @Override
    public boolean cycle(String resource) {
        Optional<Lease> lease = manager.tryAcquire(resource, TTL);
        if (lease.isEmpty()) {
            return false;
        }
        LockResult released = lease.get().release();
        if (released != LockResult.APPLIED) {
            throw new IllegalStateException("distlock release of '" + resource + "' answered " + released);
        }
        return true;
    }

    @Override
    public void close() {
        manager.close();
    }
}
