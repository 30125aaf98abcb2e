package io.distlock.jdbc.dialect;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * Everything that differs between databases in running the lock table and the fencing table atomically: the acquire
 * and fencing statements, the clock, interval arithmetic, how an {@code UPDATE} hands back the rows it changed, where
 * the schema scripts lie and which Spring Boot platform they are written for. Adding a database means implementing
 * this interface and shipping its schema scripts: pass the implementation to
 * {@code JdbcLockRepository.Builder.dialect} and {@code FencingGuard.Builder.dialect}, or define it as a bean for the
 * Spring Boot starter.
 *
 * <p>Statement texts may contain the marker {@value #NOW}, which stands for the current time: the database clock by
 * default, a bound parameter in application-time mode; and {@value #NOW_UNDER_LOCK}, the time once the statement holds
 * the row's lock, after any wait for it ({@link #currentTimeUnderLockExpression()}). Rows are read with the columns
 * {@code resource, owner, token, acquired_at, expires_at} in that order.
 *
 * <p>Every statement of the lock table runs within a time bound (the repository's {@code statementTimeout}). A
 * dialect says how the database enforces it: cancelling it through JDBC ({@link #boundsByCancelling()}, the default), a bound
 * in the statement's own text ({@link #boundStatement}), or, where neither ends a wait for a row lock, the session's
 * own lock timeout ({@link #lockWaitTimeoutQuery()}).
 */
public interface LockDialect {

    /** The marker for "the current time" in statement texts. */
    String NOW = "{now}";

    /**
     * The marker for "the current time, read once the statement holds the row's lock" in statement texts: what the
     * times a statement writes are computed from, so that a statement that waited for a row lock does not write a
     * lease that ran out during the wait. A bound parameter in application-time mode, like {@value #NOW}.
     */
    String NOW_UNDER_LOCK = "{now-under-lock}";

    /** The columns every statement that reads lock rows returns, in order. */
    String COLUMNS = "resource, owner, token, acquired_at, expires_at";

    /**
     * The database this dialect speaks to, for messages.
     *
     * @return a product name such as {@code PostgreSQL}
     */
    String name();

    /**
     * Where the DDL script for this database lies on the class path. The script names the table
     * {@code distributed_locks} and its token sequence {@code distributed_locks_token_seq}.
     *
     * @return a class path location
     */
    String schemaLocation();

    /**
     * The Spring Boot platform this database's schema scripts are written for: what replaces {@code @@platform@@} in
     * a schema location such as {@code schema-@@platform@@.sql}.
     *
     * @return a platform id such as {@code postgresql}, or {@code mysql} for MariaDB
     */
    String platform();

    /**
     * Where the DDL script of the fencing table for this database lies on the class path. The script names the table
     * {@code fencing_tokens}, with the columns {@code name} (the protected resource, primary key) and
     * {@code last_token}.
     *
     * @return a class path location
     */
    String fencingSchemaLocation();

    /**
     * The database's own clock, in UTC, as fresh as the database allows within one statement.
     *
     * @return an SQL expression
     */
    String currentTimeExpression();

    /**
     * The database's clock, in UTC, as read when the expression is evaluated after the statement took the row's lock:
     * {@link #NOW_UNDER_LOCK}. The default is {@link #currentTimeExpression()}, right for databases whose clock moves
     * within a statement; a database whose clock is fixed at the start of a statement or transaction, and has no
     * other, keeps it, and the repository then checks the lease of a slow acquire once more before handing it out.
     *
     * @return an SQL expression
     */
    default String currentTimeUnderLockExpression() {
        return currentTimeExpression();
    }

    /**
     * A bound parameter carrying the application's time, cast to the column type.
     *
     * @return an SQL expression with exactly one {@code ?}
     */
    String timeParameterExpression();

    /**
     * Adds milliseconds to a timestamp.
     *
     * @param timestamp an SQL timestamp expression
     * @param millis an SQL integer expression, such as {@code ?}
     * @return an SQL timestamp expression
     */
    String plusMillis(String timestamp, String millis);

    /**
     * The acquire statement: one atomic decision that takes a free or expired lock, renews the caller's own, and
     * leaves another owner's live lock alone. A new owner's token is drawn from the sequence under the row lock, and
     * the times written on a conflict are computed from {@link #NOW_UNDER_LOCK}, so that a takeover's acquisition is
     * never before the previous holder's expiry and a lease is not already over when the statement returns it.
     * Parameters: resource, owner, TTL in milliseconds. Returns the row afterwards, or no row when not acquired;
     * callers compare the returned owner with their own.
     *
     * @param table the lock table's name
     * @param sequence the token sequence's name
     * @return the statement text
     */
    String acquire(String table, String sequence);

    /**
     * The fencing statement: one atomic decision, inside the writer's transaction, that inserts the fence row of a
     * protected resource when it is absent, raises its {@code last_token} to the writer's token when that is at least
     * as high, and otherwise leaves the row alone. The row stays locked until the transaction ends, and a statement
     * waiting for that lock decides on the row as the other transaction left it. Parameters: name, token. Returns the
     * row's {@code last_token} when the statement changed it, or the row's final state whatever the decision; the
     * write is admitted when a row comes back carrying the writer's token. Two first writes of a brand-new name may
     * collide on the primary key; the duplicate-key failure is retried once, which then sees the other row.
     *
     * @param table the fencing table's name
     * @return the statement text
     */
    String fencingAdmit(String table);

    /**
     * Turns an {@code UPDATE} of the lock table into a query returning the changed rows' {@link #COLUMNS}.
     *
     * @param update the update statement
     * @return the query, or {@code null} when the database cannot return updated rows
     */
    @Nullable
    String updateReturningRows(String update);

    /**
     * A condition that, added to the {@code WHERE} of a statement run alone in autocommit, lets that statement's
     * transaction commit without waiting for its commit record to reach durable storage, and is true whenever it is
     * evaluated. Only the release uses it, unless the repository is built with {@code durableRelease(true)}: a
     * release lost in a crash of the database leaves the lock held by its owner until its TTL, and any durable commit
     * after it, such as the next owner's acquire, makes it durable too.
     *
     * @return the condition; {@code null} (the default) when the database cannot choose so for one transaction
     */
    default @Nullable String commitWithoutFlushCondition() {
        return null;
    }

    /**
     * The batch renewal with the leases' resources and owners bound as two arrays of {@code text}
     * ({@link java.sql.Connection#createArrayOf}), for a database that parses and plans one pair of parameters per
     * lease markedly slower. The same decision as the renewal of each lease on its own: a lease is extended only when
     * it is live and its owner's. Parameters: TTL in milliseconds, the resources, the owners (same length, lease by
     * lease; no lease twice), the TTL in milliseconds. Returns the renewed rows' {@link #COLUMNS}. A row another
     * session holds locked is passed over, not waited for ({@code FOR UPDATE SKIP LOCKED}): it is missing from the
     * answer, and the watchdog renews that lease on its own.
     *
     * @param table the lock table's name
     * @return the statement text; {@code null} (the default) to bind a pair of parameters per lease
     */
    default @Nullable String renewAllByArrays(String table) {
        return null;
    }

    /**
     * Turns the release statement (an {@code UPDATE} of one row) into a query that also tells listeners of a
     * notification channel when it frees the lock, in the same statement, so that waiters in other processes need
     * not wait for their next poll; the notification must be delivered only if the statement commits. The query
     * returns one row per row the update changed; what the row holds does not matter. The repository listens with
     * pgjdbc's {@code PGConnection.getNotifications}, so a dialect answers a query only for a PostgreSQL-compatible
     * database reached through pgjdbc.
     *
     * @param release the release statement
     * @param channel the channel, letters, digits and underscores only
     * @return the query, or {@code null} (the default) when the database cannot notify
     */
    default @Nullable String notifyingRelease(String release, String channel) {
        return null;
    }

    /**
     * A batch renewal that gives up at once, rather than wait, when a row of the batch is held locked by another
     * session, for a database whose {@code UPDATE} cannot pass over such rows: the batch then locks the rows it can
     * with {@code SELECT … FOR UPDATE SKIP LOCKED} and renews those in a transaction. Without it, every batch takes
     * that way.
     *
     * @param update the batch renewal
     * @return the statement that fails at once on a locked row ({@link #isLockedRow}), or {@code null} (the default)
     */
    default @Nullable String failingOnLockedRows(String update) {
        return null;
    }

    /**
     * Whether a statement of {@link #failingOnLockedRows} failed on a row another session holds locked.
     *
     * @param ex the failure
     * @return {@code false} by default
     */
    default boolean isLockedRow(SQLException ex) {
        return false;
    }

    /**
     * Most leases renewed in one statement.
     *
     * @return the batch size
     */
    int maxRenewBatch();

    /**
     * A query that fails when the token sequence is missing.
     *
     * @param sequence the sequence's name
     * @return the statement text
     */
    String checkSequence(String sequence);

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
     * A query describing the lock table's columns, so that the start-up check can refuse a table whose types break
     * the guarantees (a timestamp without its zone, a case-insensitive key, no unique key on {@code resource}).
     * Parameters: the schema, or {@code null} for the session's current one, and the table name, both as configured.
     * One row per column: its name, then a description of its type as {@link #expectedColumnType} judges it.
     *
     * @return the query; {@code null} (the default) to check no types
     */
    default @Nullable String columnTypesQuery() {
        return null;
    }

    /**
     * Judges a lock table column's type, as {@link #columnTypesQuery()} describes it.
     *
     * @param column the column's name, in lower case
     * @param found the type's description
     * @return {@code null} when the type keeps the guarantees; otherwise the type expected, for the message
     */
    default @Nullable String expectedColumnType(String column, String found) {
        return null;
    }

    /**
     * Reads an instant column.
     *
     * @param rs the result set
     * @param column the 1-based column index
     * @return the instant
     * @throws SQLException when the column cannot be read
     */
    Instant readInstant(ResultSet rs, int column) throws SQLException;

    /**
     * Converts an instant to what the driver binds for {@link #timeParameterExpression()}.
     *
     * @param instant the instant
     * @return the JDBC parameter value
     */
    Object instantParameter(Instant instant);
}
