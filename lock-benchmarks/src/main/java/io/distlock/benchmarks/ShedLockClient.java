package io.distlock.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import javax.sql.DataSource;

import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * ShedLock: {@link JdbcTemplateLockProvider} with {@code usingDbTime()}; a cycle is {@code lock(…)} then
 * {@code unlock()}.
 */
final class ShedLockClient implements LockClient {

    private final JdbcTemplateLockProvider provider;

    ShedLockClient(DataSource dataSource, String node) {
        this.provider = new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
                .withJdbcTemplate(new JdbcTemplate(dataSource))
                .withTableName(BenchSchema.SHEDLOCK_TABLE)
                .withLockedByValue(node)
                .usingDbTime()
                .build());
    }

    @Override
    public boolean cycle(String resource) {
        Optional<SimpleLock> lock = provider.lock(new LockConfiguration(Instant.now(), resource, TTL, Duration.ZERO));
        if (lock.isEmpty()) {
            return false;
        }
        lock.get().unlock();
        return true;
    }
}
