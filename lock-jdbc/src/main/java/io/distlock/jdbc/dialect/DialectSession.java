package io.distlock.jdbc.dialect;

import java.sql.SQLException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * How the database bounds the lock statements in time and which session settings they need, as a dialect says it:
 * cancelling a statement through JDBC ({@link #boundsByCancelling()}, the default), a bound in the statement's own
 * text ({@link #boundStatement}), or, where neither ends a wait for a row lock, the session's own lock timeout
 * ({@link #lockWaitTimeoutQuery()}); the isolation levels the statements keep their guarantees at; and which of the
 * database's errors say that a statement ran out of time. Part of a {@link LockDialect}.
 */
public interface DialectSession {

    /**
     * The database this dialect speaks to, for messages.
     *
     * @return a product name such as {@code PostgreSQL}
     */
    String name();

    /**
     * Adds a bound on a statement's run time to its text, where the database's SQL can say so; the default adds
     * none. A statement that runs out of time must fail with an error the repository reads as a timeout, and change
     * nothing.
     *
     * @param sql a statement of the lock table
     * @param timeout how long it may run, at least one second
     * @return the statement with its bound
     */
    default String boundStatement(String sql, Duration timeout) {
        return sql;
    }

    /**
     * Whether the repository bounds each statement by cancelling it through JDBC ({@link java.sql.Statement#cancel})
     * once the statement timeout has passed. The driver must then end the statement, a wait for a row lock included,
     * with an error the repository reads as a timeout, and the database must roll it back.
     *
     * @return {@code true} by default; {@code false} when {@link #boundStatement} or the session's lock timeout bound
     *     the statements instead
     */
    default boolean boundsByCancelling() {
        return true;
    }

    /**
     * A query of how long the current session waits for a row lock, in milliseconds, for a database whose statements
     * cannot bound such a wait themselves. When the session waits longer than the statement timeout, the repository
     * shortens the wait with {@link #lockWaitTimeoutStatement} for its own statements and restores it afterwards.
     *
     * @return the query, answering one row with one number; {@code null} (the default) when the database needs none
     */
    default @Nullable String lockWaitTimeoutQuery() {
        return null;
    }

    /**
     * Sets how long the current session waits for a row lock; used only with {@link #lockWaitTimeoutQuery()}.
     *
     * @param millis the longest wait, in milliseconds
     * @return the statement text
     */
    default String lockWaitTimeoutStatement(long millis) {
        throw new UnsupportedOperationException(name() + " has no session lock timeout");
    }

    /**
     * Whether the lock statements, each run on its own in autocommit, keep their guarantees, without serialization
     * failures, at a transaction isolation level. The repository runs them at {@code READ COMMITTED} on a connection
     * whose level is any other, and sets the level back afterwards.
     *
     * @param level a {@link java.sql.Connection} {@code TRANSACTION_} constant
     * @return {@code true} for {@code READ COMMITTED} by default
     */
    default boolean keepsGuaranteesAt(int level) {
        return level == java.sql.Connection.TRANSACTION_READ_COMMITTED;
    }

    /**
     * Whether a statement failed because it ran out of time or waited too long for a lock, which the database rolls
     * back: the repository then reports a timeout (an acquire answers "not acquired"), and retries nothing. Asked of
     * each exception in the chain of causes. The default knows JDBC's {@link java.sql.SQLTimeoutException} only; a
     * dialect adds its database's error codes.
     *
     * @param ex a failure, or one of its causes
     * @return whether it says the statement ran out of time
     */
    default boolean isTimeout(SQLException ex) {
        return ex instanceof java.sql.SQLTimeoutException;
    }
}
