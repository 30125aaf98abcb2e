package io.distlock.jdbc;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.LockResult;
import io.distlock.core.TimeSource;
import io.distlock.testsupport.LockRepositoryContract;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The lock repository contract on a lock table, plus what only a lock table does: a takeover updates the resource's
 * row in place, clean-up deletes only rows expired longer than the retention, and in database-time mode skewed
 * application clocks decide nothing. Each database runs it in a subclass of a few lines, in each time mode it
 * supports.
 */
abstract class JdbcLockRepositoryContractTests extends LockRepositoryContract {

    private LockTableName table;

    private JdbcLockRepository repository;

    protected abstract TestDatabase database();

    protected TimeSource timeSource() {
        return TimeSource.DATABASE;
    }

    /**
     * Creates the lock table the suite runs on.
     *
     * @return its name
     */
    protected LockTableName createLockTable() {
        return database().createLockTable();
    }


    /**
     * Drops what {@link #createLockTable()} made.
     *
     * @param table the lock table
     */
    protected void dropLockTable(LockTableName table) {
        database().dropLockTable(table);
    }

    @Override
    protected LockRepository openStore() {
        table = createLockTable();
        repository = repository(Clock.systemUTC());
        return repository;
    }

    @Override
    protected void closeStore() {
        if (table != null) {
            dropLockTable(table);
        }
    }

    @Override
    protected Instant storeTime() {
        return timeSource() == TimeSource.APPLICATION ? Instant.now() : database().currentTime();
    }

    @Override
    protected int maxRenewBatch() {
        return database().dialect().maxRenewBatch();
    }

    private JdbcLockRepository repository(Clock clock) {
        return JdbcLockRepository.builder(database().dataSource()).tableName(table.value())
                .dialect(database().dialect()).timeSource(timeSource()).clock(clock).build();
    }

    @Test
    void aTakeoverAfterExpiryOrReleaseUpdatesTheResourcesRowInPlace() {
        String resource = resource();
        String owner = owner();
        repository.acquire(resource, owner(), SHORT).orElseThrow();
        awaitExpiry(resource);
        repository.acquire(resource, owner, LONG).orElseThrow();
        assertThat(rowCount(resource)).as("after expiry").isEqualTo(1);
        assertThat(repository.release(resource, owner)).isEqualTo(LockResult.APPLIED);
        repository.acquire(resource, owner(), LONG).orElseThrow();
        assertThat(rowCount(resource)).as("after release").isEqualTo(1);
    }

    @Test
    void everyNewLeaseLastsExactlyItsTtlWhetherItsRowIsWrittenFirstOrTakenOver() {
        // The database clock moves between two readings within a statement; a new lease's times come from one.
        for (int i = 0; i < 100; i++) {
            String resource = resource();
            LockRecord first = repository.acquire(resource, owner(), LONG).orElseThrow();
            assertThat(repository.release(resource, first.owner())).isEqualTo(LockResult.APPLIED);
            LockRecord takeover = repository.acquire(resource, owner(), LONG).orElseThrow();
            assertThat(Duration.between(first.acquiredAt(), first.expiresAt())).as("written first").isEqualTo(LONG);
            assertThat(Duration.between(takeover.acquiredAt(), takeover.expiresAt())).as("taken over")
                    .isEqualTo(LONG);
        }
    }

    @Test
    void deleteExpiredRemovesOnlyRowsExpiredLongerThanTheRetentionAndTokensStayMonotonic() {
        String gone = resource();
        String recent = resource();
        String live = resource();
        LockRecord old = repository.acquire(gone, owner(), LONG).orElseThrow();
        repository.acquire(recent, owner(), SHORT).orElseThrow();
        repository.acquire(live, owner(), LONG).orElseThrow();
        awaitExpiry(recent);
        assertThat(database().expireLongAgo(table, gone)).isEqualTo(1);
        assertThat(repository.deleteExpired(Duration.ofHours(1))).isPositive();
        assertThat(rowCount(gone)).isZero();
        assertThat(rowCount(recent)).as("expired less than the retention ago").isEqualTo(1);
        assertThat(rowCount(live)).isEqualTo(1);
        LockRecord again = repository.acquire(gone, owner(), LONG).orElseThrow();
        assertThat(again.token()).isGreaterThan(old.token());
        assertThatIllegalArgumentException().isThrownBy(() -> repository.deleteExpired(Duration.ofSeconds(5)))
                .withMessage("retention must be at least PT1M, got PT5S");
    }

    @Test
    void applicationClocksSkewedByMinutesDecideNothingInDatabaseTimeMode() {
        String resource = resource();
        JdbcLockRepository ahead = repository(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(7)));
        JdbcLockRepository behind = repository(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-7)));
        LockRecord held = behind.acquire(resource, owner(), Duration.ofMinutes(1)).orElseThrow();
        Optional<LockRecord> second = ahead.acquire(resource, owner(), Duration.ofMinutes(1));
        if (timeSource() == TimeSource.DATABASE) {
            assertThat(second).as("database time: the skewed clock cannot see the lock as expired").isEmpty();
            assertThat(ahead.find(resource)).contains(held);
        }
        else {
            assertThat(second).as("application time: a clock 14 minutes ahead takes a live lock — why it is "
                    + "not the default").isPresent();
        }
    }

    private int rowCount(String resource) {
        try (var connection = database().dataSource().getConnection();
                var statement = connection.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE resource = ?")) {
            statement.setString(1, resource);
            try (var rs = statement.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
        catch (java.sql.SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
