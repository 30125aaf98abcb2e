package io.distlock.jdbc;

import java.sql.SQLException;
import java.time.Duration;

import javax.sql.DataSource;

import io.distlock.jdbc.dialect.LockDialect;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;

/**
 * What a failed statement of one table means, as Spring's {@link DataAccessException}s: a connection that did not
 * come in time, a statement that ran out of time (whatever the database's error code, as its dialect reads it: see
 * {@link LockDialect#isTimeout}), a commit that did not reach the synchronous standby
 * ({@link UnreplicatedCommitException}), a server that is read-only (a standby, or a demoted primary), a duplicate
 * key, or whatever Spring's error codes make of the rest. Messages name
 * the task and the table; the statement's text goes to DEBUG only.
 */
final class StatementFailures {

    private static final Logger logger = LoggerFactory.getLogger(StatementFailures.class);

    /** SQLSTATE of a write on a read-only transaction: on PostgreSQL, every write on a standby. */
    private static final String READ_ONLY = "25006";

    private final String table;

    private final LockDialect dialect;

    private final @Nullable Duration timeout;

    private final SQLExceptionTranslator translator;

    /**
     * Reads the failures of one table's statements.
     *
     * @param dataSource the data source, whose database's error codes Spring reads
     * @param table the table's name, for messages
     * @param dialect the database's dialect, which knows its timeout codes
     * @param timeout the statement timeout, for messages, or {@code null}
     */
    StatementFailures(DataSource dataSource, String table, LockDialect dialect, @Nullable Duration timeout) {
        this.table = table;
        this.dialect = dialect;
        this.timeout = timeout;
        this.translator = new SQLErrorCodeSQLExceptionTranslator(dataSource);
    }

    /**
     * Turns a failure into Spring's exception for it.
     *
     * @param task what the statement did, for the message
     * @param sql the statement's text, logged at DEBUG; {@code null} when there was no statement yet
     * @param ex the failure
     * @return the exception to throw
     */
    DataAccessException translate(String task, @Nullable String sql, SQLException ex) {
        if (ex instanceof ConnectionWaitTimeoutException) {
            return new CannotGetJdbcConnectionException(task + " on " + table + ": " + ex.getMessage(), ex);
        }
        if (ex instanceof UnreplicatedCommitException) {
            return new TransientDataAccessResourceException(task + " on " + table + " is not replicated: "
                    + ex.getMessage(), ex);
        }
        if (READ_ONLY.equals(ex.getSQLState())) {
            return new TransientDataAccessResourceException(task + " on " + table + " failed: the server is "
                    + "read-only, most likely a standby or a demoted primary; connect to the primary (with "
                    + "PostgreSQL's driver, a multi-host URL with targetServerType=primary follows a promotion): "
                    + ex.getMessage(), ex);
        }
        if (isTimeout(ex)) {
            return new QueryTimeoutException(task + " on " + table + " ran out of time"
                    + (timeout != null ? " (statement timeout " + timeout + ")" : "") + ": " + ex.getMessage(), ex);
        }
        // The statement's text stays out of the message, which logs and exceptions repeat on every failure of an
        // outage; it is logged at DEBUG.
        if (sql != null) {
            logger.debug("{} on {} failed: {}; SQL [{}]", task, table, ex.getMessage(), sql);
        }
        DataAccessException translated = translator.translate(task + " on " + table, null, ex);
        return translated != null ? translated : new UncategorizedSQLException(task + " on " + table, null, ex);
    }

    /**
     * Whether a statement failed on a duplicate key.
     *
     * @param task what the statement did
     * @param sql the statement's text
     * @param ex the failure
     * @return {@code true} for a duplicate key
     */
    boolean isDuplicateKey(String task, String sql, SQLException ex) {
        return translate(task, sql, ex) instanceof DuplicateKeyException;
    }

    /**
     * Whether a statement failed because it ran out of time, which the database rolls back: anywhere in the chain of
     * causes, an error the dialect reads as a timeout.
     */
    private boolean isTimeout(SQLException ex) {
        for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && dialect.isTimeout(sql)) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }
}
