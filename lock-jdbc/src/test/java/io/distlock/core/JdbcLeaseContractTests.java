package io.distlock.core;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockTableName;
import io.distlock.testsupport.CountingDataSource;
import io.distlock.testsupport.LeaseContract;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lease contract on a lock table, plus what only a lock table in the application's database does: lock
 * operations are isolated from the caller's transaction.
 */
abstract class JdbcLeaseContractTests extends LeaseContract {

    private LockTableName table;

    private CountingDataSource counting;

    protected abstract TestDatabase database();

    @Override
    protected LockRepository openStore() {
        table = database().createLockTable();
        counting = new CountingDataSource(database().dataSource());
        return JdbcLockRepository.builder(counting).tableName(table.value()).dialect(database().dialect()).build();
    }

    @Override
    protected void closeStore() {
        if (table != null) {
            database().dropLockTable(table);
        }
    }

    @Override
    protected void forceExpiry(String resource) {
        assertThat(database().expireLongAgo(table, resource)).isEqualTo(1);
    }

    @Override
    protected void resetRoundTrips() {
        counting.reset();
    }

    @Override
    protected int roundTrips() {
        return counting.statements();
    }

    @Override
    protected String storeName() {
        return database().id();
    }

    @Override
    protected String roundTripUnit() {
        return "statements";
    }

    @Test
    void acquiringInsideACallersTransactionCommitsAtOnceAndSurvivesItsRollback() {
        String resource = resource();
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(
                database().dataSource()));
        JdbcTemplate callerJdbc = new JdbcTemplate(database().dataSource());
        AtomicReference<Lease> inside = new AtomicReference<>();
        transaction.executeWithoutResult(status -> {
            callerJdbc.queryForObject("SELECT COUNT(*) FROM " + table, Integer.class);
            inside.set(locks().tryAcquire(resource, Duration.ofMinutes(1)).orElseThrow());
            assertThat(otherConnectionSees(resource)).as("visible to others before the caller commits").isTrue();
            status.setRollbackOnly();
        });
        assertThat(repository().find(resource).map(LockRecord::owner)).contains(inside.get().owner());
        inside.get().release();
    }

    @Test
    void aLockConflictDoesNotSpoilTheCallersTransaction() {
        String held = resource();
        String marker = resource();
        Lease holder = locks().tryAcquire(held, Duration.ofMinutes(1)).orElseThrow();
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(
                database().dataSource()));
        JdbcTemplate callerJdbc = new JdbcTemplate(database().dataSource());
        transaction.executeWithoutResult(status -> {
            assertThat(locks().tryAcquire(held, Duration.ofMinutes(1))).isEmpty();
            assertThat(locks().tryAcquire(holder.resource(), Duration.ofMinutes(1))).isEmpty();
            callerJdbc.update("INSERT INTO " + table + " (resource, owner, token, acquired_at, expires_at) "
                    + "SELECT ?, owner, token, acquired_at, expires_at FROM " + table + " WHERE resource = ?", marker,
                    held);
        });
        assertThat(repository().find(marker)).isPresent();
        holder.release();
    }

    private boolean otherConnectionSees(String resource) {
        try (Connection connection = database().dataSource().getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "SELECT COUNT(*) FROM " + table + " WHERE resource = ?")) {
            statement.setString(1, resource);
            try (var rs = statement.executeQuery()) {
                rs.next();
                return rs.getInt(1) == 1;
            }
        }
        catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
