package io.distlock.jdbc.dialect;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * The database's clock as a dialect writes it into statements: the current time, the time once a statement holds a
 * row's lock, the application's time as a bound parameter, interval arithmetic, and how instants are read and bound.
 * Part of a {@link LockDialect}.
 *
 * <p>Statement texts may contain the marker {@value #NOW}, which stands for the current time: the database clock by
 * default, a bound parameter in application-time mode; and {@value #NOW_UNDER_LOCK}, the time once the statement holds
 * the row's lock, after any wait for it ({@link #currentTimeUnderLockExpression()}).
 */
public interface DialectClock {

    /** The marker for "the current time" in statement texts. */
    String NOW = "{now}";

    /**
     * The marker for "the current time, read once the statement holds the row's lock" in statement texts: what the
     * times a statement writes are computed from, so that a statement that waited for a row lock does not write a
     * lease that ran out during the wait. A bound parameter in application-time mode, like {@value #NOW}.
     */
    String NOW_UNDER_LOCK = "{now-under-lock}";

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
