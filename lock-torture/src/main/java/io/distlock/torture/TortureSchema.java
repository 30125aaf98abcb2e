package io.distlock.torture;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import javax.sql.DataSource;

import io.distlock.jdbc.FencingSchema;
import io.distlock.jdbc.LockSchema;
import io.distlock.jdbc.LockTableName;
import io.distlock.testsupport.TestDatabase;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.support.EncodedResource;
import org.springframework.jdbc.datasource.init.ScriptUtils;

/**
 * The torture tables, dropped and created afresh by the controller at the start of every run.
 * <ul>
 * <li>{@value #LOCKS}: the lock table, from lock-core's schema script;</li>
 * <li>{@value #FENCE}: the fencing table of the ledger, from lock-core's fencing schema script;</li>
 * <li>{@value #COUNTER}: the unfenced counter per lock, written by read, wait, write;</li>
 * <li>{@value #SECTIONS}: one row per completed critical section, committed with its counter write, saying whether
 * the writer's lease was already known lost when it wrote;</li>
 * <li>{@value #LEDGER_HEAD}: the fenced ledger per lock, whose {@code version} counts accepted writes in commit
 * order;</li>
 * <li>{@value #LEDGER}: every fenced write, accepted (with the head version it produced) or refused;</li>
 * <li>{@value #SESSIONS}: MariaDB session ids per worker process, for the disconnect fault.</li>
 * </ul>
 * The slots workload has tables of its own, dropped and created afresh by its runs:
 * <ul>
 * <li>{@value #SLOT_LOCKS}: the lock table with its slot history, {@value #SLOT_LOCKS}{@code _slots}, from
 * lock-core's schema script;</li>
 * <li>{@value #SLOT_RUNS}: one row per run a worker started, committed before the run's work: the job, its policy,
 * the slot, the worker, the lease's token, the start (database clock), and the end if the run got there;</li>
 * <li>{@value #SLOT_SESSIONS}: MariaDB session ids per worker process, for the disconnect fault.</li>
 * </ul>
 */
final class TortureSchema {

    static final String LOCKS = "torture_locks";

    static final String FENCE = "torture_fence";

    static final String COUNTER = "torture_counter";

    static final String SECTIONS = "torture_sections";

    static final String LEDGER_HEAD = "torture_ledger_head";

    static final String LEDGER = "torture_ledger";

    static final String SESSIONS = "torture_sessions";

    static final String SLOT_LOCKS = "torture_slot_locks";

    static final String SLOT_RUNS = "torture_slot_runs";

    static final String SLOT_SESSIONS = "torture_slot_sessions";

    private TortureSchema() {
    }

    static String lockName(int index) {
        return "torture-lock-" + index;
    }

    static void reset(DataSource dataSource, TestDatabase database, int locks) throws SQLException {
        String timestamp = timestampType(database);
        String options = tableOptions(database);
        String identity = identityColumn(database);
        try (Connection connection = dataSource.getConnection()) {
            try (Statement statement = connection.createStatement()) {
                for (String table : List.of(LOCKS, FENCE, COUNTER, SECTIONS, LEDGER_HEAD, LEDGER, SESSIONS)) {
                    statement.execute("DROP TABLE IF EXISTS " + table);
                }
                statement.execute("DROP SEQUENCE IF EXISTS " + new LockTableName(LOCKS).sequence());
            }
            runScript(connection, LockSchema.script(database.dialect(), new LockTableName(LOCKS)));
            runScript(connection, FencingSchema.script(database.dialect(), FENCE));
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE " + COUNTER + " (lock_name VARCHAR(255) NOT NULL PRIMARY KEY, "
                        + "counter_value BIGINT NOT NULL)" + options);
                statement.execute("CREATE TABLE " + SECTIONS + " (id " + identity + ", "
                        + "lock_name VARCHAR(255) NOT NULL, token BIGINT NOT NULL, owner VARCHAR(255) NOT NULL, "
                        + "worker_pid BIGINT NOT NULL, read_value BIGINT NOT NULL, written_value BIGINT NOT NULL, "
                        + "lease_lost INT NOT NULL, started_at " + timestamp + " NOT NULL, ended_at " + timestamp + " NOT NULL)" + options);
                statement.execute("CREATE TABLE " + LEDGER_HEAD + " (lock_name VARCHAR(255) NOT NULL PRIMARY KEY, "
                        + "token BIGINT NOT NULL, version BIGINT NOT NULL)" + options);
                statement.execute("CREATE TABLE " + LEDGER + " (id " + identity + ", "
                        + "lock_name VARCHAR(255) NOT NULL, token BIGINT NOT NULL, owner VARCHAR(255) NOT NULL, "
                        + "worker_pid BIGINT NOT NULL, accepted INT NOT NULL, version BIGINT, "
                        + "written_at " + timestamp + " NOT NULL)" + options);
                statement.execute("CREATE TABLE " + SESSIONS + " (worker_pid BIGINT NOT NULL, "
                        + "session_id BIGINT NOT NULL)" + options);
            }
            for (int i = 0; i < locks; i++) {
                insert(connection, "INSERT INTO " + COUNTER + " (lock_name, counter_value) VALUES (?, 0)", lockName(i));
                insert(connection, "INSERT INTO " + LEDGER_HEAD + " (lock_name, token, version) VALUES (?, 0, 0)",
                        lockName(i));
            }
        }
    }

    static String jobName(int index) {
        return "torture-slot-" + index;
    }

    static void resetSlots(DataSource dataSource, TestDatabase database) throws SQLException {
        String timestamp = timestampType(database);
        String options = tableOptions(database);
        String identity = identityColumn(database);
        LockTableName locks = new LockTableName(SLOT_LOCKS);
        try (Connection connection = dataSource.getConnection()) {
            try (Statement statement = connection.createStatement()) {
                for (String table : List.of(SLOT_LOCKS + "_slots", SLOT_LOCKS, SLOT_RUNS, SLOT_SESSIONS)) {
                    statement.execute("DROP TABLE IF EXISTS " + table);
                }
                statement.execute("DROP SEQUENCE IF EXISTS " + locks.sequence());
            }
            runScript(connection, LockSchema.script(database.dialect(), locks));
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE " + SLOT_RUNS + " (id " + identity + ", job VARCHAR(255) NOT NULL, "
                        + "policy VARCHAR(16) NOT NULL, slot_at BIGINT NOT NULL, run_no INT NOT NULL, "
                        + "worker VARCHAR(64) NOT NULL, worker_pid BIGINT NOT NULL, token BIGINT NOT NULL, "
                        + "started_at " + timestamp + " NOT NULL, finished_at " + timestamp + ", "
                        + "lease_lost INT)" + options);
                statement.execute("CREATE TABLE " + SLOT_SESSIONS + " (worker_pid BIGINT NOT NULL, "
                        + "session_id BIGINT NOT NULL)" + options);
            }
        }
    }

    /** A timestamp column with microseconds, and a time zone where the database has one. */
    private static String timestampType(TestDatabase database) {
        return switch (database) {
            case H2 -> "TIMESTAMP(6) WITH TIME ZONE";
            case POSTGRESQL -> "TIMESTAMPTZ(6)";
            case MARIADB -> "DATETIME(6)";
        };
    }

    private static String identityColumn(TestDatabase database) {
        return database == TestDatabase.MARIADB ? "BIGINT AUTO_INCREMENT PRIMARY KEY"
                : "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY";
    }

    /** MariaDB's tables are InnoDB with lock-core's binary collation; the others need no options. */
    private static String tableOptions(TestDatabase database) {
        return database == TestDatabase.MARIADB
                ? " ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_nopad_bin" : "";
    }

    private static void runScript(Connection connection, String script) {
        ScriptUtils.executeSqlScript(connection, new EncodedResource(new ByteArrayResource(script.getBytes())));
    }

    private static void insert(Connection connection, String sql, String lockName) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, lockName);
            statement.executeUpdate();
        }
    }
}
