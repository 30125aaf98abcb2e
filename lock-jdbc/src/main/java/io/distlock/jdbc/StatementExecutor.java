package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

import javax.sql.DataSource;

import io.distlock.jdbc.dialect.LockDialect;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.datasource.DataSourceUtils;

/**
 * Runs the statements of one table on a data source: either on a connection of their own in autocommit, outside any
 * transaction of the caller ({@link OwnConnection}), or on the connection of the caller's current transaction. It
 * retries deadlocks and serialization failures, which roll back the whole statement; statements themselves run in
 * {@link BoundStatements}, and their failures become Spring's {@link DataAccessException}s in
 * {@link StatementFailures}.
 *
 * <p>With a statement timeout, the wait for a connection of its own is bounded by it ({@link OwnConnections#take}),
 * every wait of that connection for its server by a network timeout a little longer ({@link NetworkTimeout}, which ends
 * a statement on a server that answers nothing, its cancel included), and every statement on it, as the dialect says:
 * cancelled through JDBC once the timeout passed ({@link StatementCanceller}), a bound in the statement's text
 * (compiled in by {@link LockStatements}), or the session's lock timeout. A statement that runs out of time, including
 * one waiting for a row lock held by another session, is rolled back by the database and surfaces as a {@link
 * QueryTimeoutException}, whatever the database's error code; it is not retried.
 */
final class StatementExecutor {

    private static final Logger logger = LoggerFactory.getLogger(StatementExecutor.class);

    private static final int MAX_ATTEMPTS = 3;

    /** The data source as given: joins the caller's transaction. */
    private final DataSource dataSource;

    /** Behind any transaction-aware proxy: hands out connections of their own. */
    private final OwnConnections own;

    private final String table;

    private final LockDialect dialect;

    /** The bound of every statement on a connection of its own, or {@code null} for none. */
    private final @Nullable Duration timeout;

    private final SessionSettings sessions;

    private final BoundStatements statements;

    private final StatementFailures failures;

    /** The bound of a connection of its own's waits for the server ({@link NetworkTimeout}), or 0 for none. */
    private final int networkTimeoutMillis;

    /**
     * Creates an executor.
     *
     * @param dataSource where the table lives
     * @param table the table's name, for messages
     * @param clock the application's clock, read for statements that bind the current time
     * @param dialect the database's dialect
     * @param timeout how long each statement on a connection of its own may run, or {@code null} for no bound
     */
    StatementExecutor(DataSource dataSource, Object table, Clock clock, LockDialect dialect,
            @Nullable Duration timeout) {
        this(dataSource, table, clock, dialect, timeout, JdbcReplication.ASYNC);
    }

    /**
     * Creates an executor whose connections of their own wait for a standby as asked.
     *
     * @param dataSource where the table lives
     * @param table the table's name, for messages
     * @param clock the application's clock, read for statements that bind the current time
     * @param dialect the database's dialect
     * @param timeout how long each statement on a connection of its own may run, or {@code null} for no bound
     * @param replication whether the commits on connections of their own wait for a standby
     */
    StatementExecutor(DataSource dataSource, Object table, Clock clock, LockDialect dialect,
            @Nullable Duration timeout, JdbcReplication replication) {
        this.dataSource = dataSource;
        this.own = new OwnConnections(dataSource);
        this.table = table.toString();
        this.dialect = dialect;
        this.timeout = timeout;
        this.sessions = new SessionSettings(dialect, timeout != null ? timeout.toMillis() : 0, replication);
        this.statements = new BoundStatements(clock,
                timeout != null && dialect.boundsByCancelling() ? timeout.toNanos() : 0, dialect);
        this.failures = new StatementFailures(own.source(), this.table, dialect, timeout);
        this.networkTimeoutMillis = timeout != null ? (int) NetworkTimeout.after(timeout).toMillis() : 0;
    }

    /**
     * Adds the dialect's time bound to a statement text, when there is one.
     *
     * @param sql the statement
     * @return the statement to prepare on a connection of its own
     */
    String bound(String sql) {
        return timeout != null ? dialect.boundStatement(sql, timeout) : sql;
    }

    /**
     * Runs work on a connection of its own in autocommit, so that the caller's transaction can neither undo it nor be
     * poisoned by its failure, whatever wraps the data source ({@link OwnConnections}). Deadlocks and serialization
     * failures are retried a few times.
     *
     * @param task what the work does, for messages
     * @param timed the work's main statement, for messages
     * @param work the work
     * @return what the work returned
     * @throws DataAccessException when the work fails, or when the data source hands out a connection that is not
     *     of its own ({@link org.springframework.dao.InvalidDataAccessApiUsageException})
     */
    <T> T runAlone(String task, TimedStatement timed, SqlWork<T> work) {
        return runAlone(task, timed, work, false);
    }

    /**
     * As {@link #runAlone(String, TimedStatement, SqlWork)}; for lease renewals, a data source that cannot give a
     * connection is also told at WARN, with how to size its pool.
     */
    <T> T runAlone(String task, TimedStatement timed, SqlWork<T> work, boolean renewal) {
        long start = System.nanoTime();
        for (int attempt = 1;; attempt++) {
            OwnConnection opened;
            try {
                opened = renewal ? openForRenewal() : open();
            }
            catch (SQLException ex) {
                throw translate(task, timed.sql(), ex);
            }
            try (OwnConnection own = opened) {
                try {
                    return work.run(own.connection());
                }
                catch (SQLException ex) {
                    if ("40001".equals(ex.getSQLState())) {
                        sessions.forget(own.connection());
                    }
                    throw ex;
                }
            }
            catch (SQLException ex) {
                DataAccessException translated = translate(task, timed.sql(), ex);
                if (translated instanceof PessimisticLockingFailureException && attempt < MAX_ATTEMPTS
                        && (timeout == null || System.nanoTime() - start < timeout.toNanos())) {
                    logger.debug("Retrying {} after {} (attempt {})", task, ex.getMessage(), attempt);
                    continue;
                }
                throw translated;
            }
        }
    }

    /**
     * Runs work on the connection of the current Spring-managed transaction on the data source.
     *
     * @param task what the work does, for messages
     * @param timed the work's main statement, for messages
     * @param work the work
     * @return what the work returned
     * @throws DataAccessException when the work fails
     */
    <T> T inCurrentTransaction(String task, TimedStatement timed, SqlWork<T> work) {
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            return work.run(connection);
        }
        catch (SQLException ex) {
            throw translate(task, timed.sql(), ex);
        }
        finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }

    /**
     * Runs work once more when it failed on a duplicate key: two first inserts of one key raced, and the second run
     * sees the other row.
     *
     * @param connection where the work runs
     * @param task what the work does, for messages
     * @param timed the work's statement
     * @param work the work
     * @return what the work returned
     * @throws SQLException when the work fails otherwise, or fails again
     */
    <T> T againOnDuplicateKey(Connection connection, String task, TimedStatement timed, SqlWork<T> work)
            throws SQLException {
        try {
            return work.run(connection);
        }
        catch (SQLException ex) {
            if (!isDuplicateKey(task, timed, ex)) {
                throw ex;
            }
            return work.run(connection);
        }
    }

    boolean isDuplicateKey(String task, TimedStatement timed, SQLException ex) {
        return failures.isDuplicateKey(task, timed.sql(), ex);
    }

    /**
     * Runs queries that need to return no row, on a connection of its own, to prove that the tables, columns and
     * sequences they name exist.
     *
     * @param task what the queries check, for messages
     * @param queries the queries
     * @param failure turns a failure, as raised and as translated, into what to throw
     */
    void probe(String task, List<String> queries,
            BiFunction<SQLException, DataAccessException, RuntimeException> failure) {
        try (OwnConnection own = open()) {
            for (String sql : queries) {
                try {
                    statements.probe(own.connection(), bound(sql));
                }
                catch (SQLException ex) {
                    throw failure.apply(ex, translate(task, sql, ex));
                }
            }
        }
        catch (SQLException ex) {
            throw failure.apply(ex, translate(task, null, ex));
        }
    }

    int update(Connection connection, TimedStatement timed, Object... args) throws SQLException {
        return statements.update(connection, timed, args);
    }

    <T> Optional<T> queryOne(Connection connection, TimedStatement timed, BoundStatements.RowReader<T> reader,
            Object... args) throws SQLException {
        return statements.queryOne(connection, timed, reader, args);
    }

    <T> List<T> queryAll(Connection connection, TimedStatement timed, BoundStatements.RowReader<T> reader,
            Object... args) throws SQLException {
        return statements.queryAll(connection, timed, reader, args);
    }

    DataAccessException translate(String task, @Nullable String sql, SQLException ex) {
        return failures.translate(task, sql, ex);
    }

    /**
     * Takes a connection of its own, waiting for the data source at most the statement timeout, and prepares its
     * session for lock statements.
     *
     * @return the connection, which gives itself back when closed
     * @throws SQLException when the data source cannot give one
     */
    OwnConnection open() throws SQLException {
        return OwnConnection.open(own, sessions, timeout != null ? timeout.toNanos() : 0, networkTimeoutMillis);
    }

    /**
     * As {@link #open()}, for lease renewals: a data source that cannot give a connection, most likely a pool whose
     * every connection guarded work holds, is told at WARN with how to size it.
     *
     * @return the connection
     * @throws SQLException when the data source cannot give one
     */
    OwnConnection openForRenewal() throws SQLException {
        try {
            return open();
        }
        catch (SQLException ex) {
            logger.warn("Lease renewal on {} could not get a connection from {}: {}. Leases run out unless a renewal "
                    + "gets one in time: size the pool for the guarded work's connections + 1 for the lock watchdog",
                    table, own.describe(), ex.getMessage());
            throw ex;
        }
    }

    /** Work on a connection. */
    @FunctionalInterface
    interface SqlWork<T> {

        T run(Connection connection) throws SQLException;
    }
}
