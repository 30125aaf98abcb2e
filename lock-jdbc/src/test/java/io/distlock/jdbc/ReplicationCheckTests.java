package io.distlock.jdbc;

import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The start-up check of the replication settings on the servers of the tests, none of which has a standby: a
 * synchronous mode asked of a database that cannot wait for a standby (H2, MariaDB) or of a PostgreSQL that names no
 * synchronous standby fails when required, and is told at WARN otherwise, naming the setting and the database; the
 * default mode on a server without standbys says so at INFO, and the health details carry the mode.
 */
class ReplicationCheckTests {

    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    private final Logger logger = (Logger) LoggerFactory.getLogger(ReplicationCheck.class);

    @BeforeEach
    void listen() {
        logged.start();
        logger.addAppender(logged);
    }

    @AfterEach
    void stopListening() {
        logger.detachAppender(logged);
    }

    @Test
    void synchronousReplicationRequiredOfH2FailsStartUpNamingTheSettingAndTheDatabase() {
        assertRefused(TestDatabase.H2, JdbcReplication.SYNCHRONOUS, "replication=synchronous", "H2");
    }

    @Test
    void synchronousReplicationAskedOfH2IsToldAtWarnNotIgnored() {
        assertWarned(TestDatabase.H2, JdbcReplication.REMOTE_APPLY, "replication=remote-apply", "cannot be honoured",
                "H2");
    }

    @Test
    void synchronousReplicationRequiredOfMariaDbFailsStartUpNamingTheSettingAndTheDatabase() {
        TestDatabase.MARIADB.assumeAvailable();
        assertRefused(TestDatabase.MARIADB, JdbcReplication.SYNCHRONOUS, "replication=synchronous", "MariaDB");
    }

    @Test
    void synchronousReplicationRequiredOfAPostgreSqlThatNamesNoStandbyFailsStartUpSayingWhatToSet() {
        TestDatabase.POSTGRESQL.assumeAvailable();
        assertRefused(TestDatabase.POSTGRESQL, JdbcReplication.SYNCHRONOUS, "replication=synchronous", "PostgreSQL",
                "synchronous_standby_names is empty", "ANY 1 (*)");
    }

    @Test
    void synchronousReplicationAskedOfAPostgreSqlThatNamesNoStandbyIsToldAtWarn() {
        TestDatabase.POSTGRESQL.assumeAvailable();
        assertWarned(TestDatabase.POSTGRESQL, JdbcReplication.SYNCHRONOUS, "replication=synchronous",
                "synchronous_standby_names is empty");
    }

    @Test
    void requiringASynchronousStandbyInTheDefaultModeFailsOnAPostgreSqlThatNamesNone() {
        TestDatabase.POSTGRESQL.assumeAvailable();
        assertRefused(TestDatabase.POSTGRESQL, JdbcReplication.ASYNC, "require-synchronous-standby", "PostgreSQL",
                "synchronous_standby_names");
    }

    @Test
    void theDefaultModeOnAPostgreSqlWithoutStandbysSaysSoOnceAtInfo() {
        TestDatabase.POSTGRESQL.assumeAvailable();
        JdbcLockRepository repository = repository(TestDatabase.POSTGRESQL, JdbcReplication.ASYNC, false);
        repository.verifySchema();
        repository.verifySchema();
        assertThat(logged.list).singleElement().satisfies(event -> {
            assertThat(event.getLevel()).isEqualTo(Level.INFO);
            assertThat(event.getFormattedMessage()).contains("replication=async on PostgreSQL").endsWith("no standby");
        });
        ReplicationStatus status = repository.replicationStatus();
        assertThat(status.details()).containsEntry("mode", "async").containsEntry("database", "PostgreSQL")
                .containsEntry("standby", false).containsEntry("acquisitionsWaitForStandby", false)
                .containsEntry("synchronousStandbys", 0);
    }

    @Test
    void theLockStatementsSessionLevelIsWhatTheStatusReads() {
        TestDatabase.POSTGRESQL.assumeAvailable();
        assertThat(repository(TestDatabase.POSTGRESQL, JdbcReplication.REMOTE_APPLY, false).replicationStatus()
                .synchronousCommit()).isEqualTo("remote_apply");
    }

    private void assertRefused(TestDatabase database, JdbcReplication mode, String... named) {
        JdbcLockRepository repository = repository(database, mode, true);
        assertThatThrownBy(repository::verifySchema).isInstanceOf(LockReplicationException.class)
                .hasMessageContainingAll(named);
    }

    private void assertWarned(TestDatabase database, JdbcReplication mode, String... named) {
        repository(database, mode, false).verifySchema();
        List<ILoggingEvent> warnings = logged.list.stream().filter(e -> e.getLevel() == Level.WARN).toList();
        assertThat(warnings).singleElement().satisfies(
                event -> assertThat(event.getFormattedMessage()).contains(named));
    }

    private static JdbcLockRepository repository(TestDatabase database, JdbcReplication mode, boolean require) {
        LockTableName table = database.createLockTable();
        return JdbcLockRepository.builder(database.dataSource()).tableName(table.value()).dialect(database.dialect())
                .replication(mode).requireSynchronousStandby(require).build();
    }
}
