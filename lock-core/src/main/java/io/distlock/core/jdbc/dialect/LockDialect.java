package io.distlock.core.jdbc.dialect;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * What differs between databases in running the lock table atomically: the acquire statement, the clock, interval
 * arithmetic and how an {@code UPDATE} hands back the rows it changed. Statement texts may contain the marker
 * {@value #NOW}, which stands for the current time: the database clock by default, a bound parameter in
 * application-time mode. Rows are read with the columns {@code resource, owner, token, acquired_at, expires_at} in
 * that order.
 */
public interface LockDialect {

    /** The marker for "the current time" in statement texts. */
    String NOW = "{now}";

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
     * The database's own clock, in UTC, as fresh as the database allows within one statement.
     *
     * @return an SQL expression
     */
    String currentTimeExpression();

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
     * leaves another owner's live lock alone. A new owner's token is drawn from the sequence under the row lock.
     * Parameters: resource, owner, TTL in milliseconds. Returns the row afterwards, or no row when not acquired;
     * callers compare the returned owner with their own.
     *
     * @param table the lock table's name
     * @param sequence the token sequence's name
     * @return the statement text
     */
    String acquire(String table, String sequence);

    /**
     * Turns an {@code UPDATE} of the lock table into a query returning the changed rows' {@link #COLUMNS}.
     *
     * @param update the update statement
     * @return the query, or {@code null} when the database cannot return updated rows
     */
    @Nullable
    String updateReturningRows(String update);

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
