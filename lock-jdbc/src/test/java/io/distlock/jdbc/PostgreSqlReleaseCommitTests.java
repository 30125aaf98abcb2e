package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.distlock.core.LeaseKey;
import io.distlock.core.LockResult;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On PostgreSQL a release commits without waiting for the WAL flush, and nothing else does. A deferred constraint
 * trigger on the lock table runs inside each statement's commit, just before the commit record is written, and
 * notes the {@code synchronous_commit} that commit obeys. The repository runs on a pool of one connection, so that a
 * setting leaking past the release's own transaction would show in the next statement's commit. With a replication
 * mode ({@link JdbcReplication}), acquisitions and renewals commit with its level, releases still without the flush,
 * and the connection goes back to the pool with its session's own level ({@code local} here).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgreSqlReleaseCommitTests {

    private static final Duration TTL = Duration.ofMinutes(5);

    private final TestDatabase database = TestDatabase.POSTGRESQL;

    private LockTableName table;

    private HikariDataSource pool;

    /** One connection whose session commits with {@code synchronous_commit = local}. */
    private HikariDataSource localPool;

    @BeforeAll
    void createTableWithCommitProbe() {
        database.assumeAvailable();
        table = database.createLockTable();
        database.execute("CREATE TABLE " + table + "_commits (id bigserial PRIMARY KEY, operation text NOT NULL, "
                + "synchronous_commit text NOT NULL)");
        database.execute("CREATE FUNCTION " + table + "_note_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                + "INSERT INTO " + table + "_commits (operation, synchronous_commit) "
                + "VALUES (TG_OP, current_setting('synchronous_commit')); RETURN NULL; END $$");
        database.execute("CREATE CONSTRAINT TRIGGER " + table + "_note_commit AFTER INSERT OR UPDATE ON " + table
                + " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION " + table + "_note_commit()");
        pool = database.openPool("distlock-release-commit", 1);
        HikariConfig local = database.poolConfig("distlock-local-commit", 1);
        local.setConnectionInitSql("SET synchronous_commit = local");
        localPool = new HikariDataSource(local);
    }

    @AfterAll
    void dropTable() {
        if (pool != null) {
            pool.close();
        }
        if (localPool != null) {
            localPool.close();
        }
        if (table != null) {
            database.execute("DROP TABLE IF EXISTS " + table + "_commits");
            database.dropLockTable(table);
            database.execute("DROP FUNCTION IF EXISTS " + table + "_note_commit()");
        }
    }

    @BeforeEach
    void forgetCommits() {
        database.execute("DELETE FROM " + table + "_commits");
    }

    private JdbcLockRepository repository(boolean durableRelease) {
        return JdbcLockRepository.builder(pool).tableName(table.value()).dialect(database.dialect())
                .durableRelease(durableRelease).build();
    }

    private static String resource() {
        return "job:" + UUID.randomUUID();
    }

    @Test
    void releaseCommitsWithSynchronousCommitOffAndTheNextStatementWithItOnAgain() {
        JdbcLockRepository repository = repository(false);
        String resource = resource();
        repository.acquire(resource, "first", TTL).orElseThrow();
        assertThat(repository.release(resource, "first")).isEqualTo(LockResult.APPLIED);
        repository.acquire(resource, "second", TTL).orElseThrow();
        assertThat(commits()).containsExactly("INSERT on", "UPDATE off", "UPDATE on");
    }

    @Test
    void releaseWithAMinimumHoldCommitsWithSynchronousCommitOffToo() {
        JdbcLockRepository repository = repository(false);
        String resource = resource();
        repository.acquire(resource, "owner", TTL).orElseThrow();
        assertThat(repository.release(resource, "owner", Duration.ofMinutes(1))).isEqualTo(LockResult.APPLIED);
        assertThat(commits()).containsExactly("INSERT on", "UPDATE off");
    }

    @Test
    void acquireRenewAndRenewAllWaitForTheFlush() {
        JdbcLockRepository repository = repository(false);
        String resource = resource();
        repository.acquire(resource, "owner", TTL).orElseThrow();
        repository.acquire(resource, "owner", TTL).orElseThrow();
        assertThat(repository.renew(resource, "owner", TTL).renewedRecord()).isPresent();
        assertThat(repository.renewAll(List.of(new LeaseKey(resource, "owner")), TTL)).hasSize(1);
        assertThat(commits()).containsExactly("INSERT on", "UPDATE on", "UPDATE on", "UPDATE on");
    }

    @Test
    void durableReleaseWaitsForTheFlush() {
        JdbcLockRepository repository = repository(true);
        String resource = resource();
        repository.acquire(resource, "owner", TTL).orElseThrow();
        assertThat(repository.release(resource, "owner")).isEqualTo(LockResult.APPLIED);
        assertThat(commits()).containsExactly("INSERT on", "UPDATE on");
    }

    @Test
    void synchronousReplicationCommitsAcquisitionsAndRenewalsWaitingForTheStandbyAndGivesTheSessionItsLevelBack()
            throws SQLException {
        assertThat(replicatedCommits(JdbcReplication.SYNCHRONOUS))
                .containsExactly("INSERT on", "UPDATE on", "UPDATE on", "UPDATE off");
        assertThat(sessionLevel()).isEqualTo("local");
    }

    @Test
    void remoteApplyCommitsAcquisitionsAndRenewalsWaitingForTheStandbyToApplyThem() throws SQLException {
        assertThat(replicatedCommits(JdbcReplication.REMOTE_APPLY))
                .containsExactly("INSERT remote_apply", "UPDATE remote_apply", "UPDATE remote_apply", "UPDATE off");
        assertThat(sessionLevel()).isEqualTo("local");
    }

    @Test
    void asynchronousReplicationLeavesTheSessionsOwnLevel() {
        assertThat(replicatedCommits(JdbcReplication.ASYNC))
                .containsExactly("INSERT local", "UPDATE local", "UPDATE local", "UPDATE off");
    }

    /** Acquires, renews, renews as a batch and releases on the connection whose session commits locally. */
    private List<String> replicatedCommits(JdbcReplication replication) {
        JdbcLockRepository repository = JdbcLockRepository.builder(localPool).tableName(table.value())
                .dialect(database.dialect()).replication(replication).build();
        String resource = resource();
        repository.acquire(resource, "owner", TTL).orElseThrow();
        assertThat(repository.renew(resource, "owner", TTL).renewedRecord()).isPresent();
        assertThat(repository.renewAll(List.of(new LeaseKey(resource, "owner")), TTL)).hasSize(1);
        assertThat(repository.release(resource, "owner")).isEqualTo(LockResult.APPLIED);
        return commits();
    }

    private String sessionLevel() throws SQLException {
        try (Connection connection = localPool.getConnection(); Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SHOW synchronous_commit")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private List<String> commits() {
        List<String> commits = new ArrayList<>();
        try (Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT operation, synchronous_commit FROM " + table
                        + "_commits ORDER BY id")) {
            while (rs.next()) {
                commits.add(rs.getString(1) + " " + rs.getString(2));
            }
        }
        catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
        return commits;
    }
}
