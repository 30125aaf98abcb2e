package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.distlock.jdbc.dialect.LockDialect;

/**
 * Runs one {@link TimedStatement} on a connection the caller holds: prepares it, binds the arguments (and the
 * application's time, where the statement takes it), runs it, cancelled through JDBC once the statement timeout
 * passed where the dialect bounds statements that way ({@link StatementCanceller}), and reads its rows. A statement
 * that succeeded with a warning saying that its commit did not wait for the synchronous standby to the end fails
 * with an {@link UnreplicatedCommitException}: what it did is on this server only.
 */
final class BoundStatements {

    private final Clock clock;

    /** How long statements run before they are cancelled, or 0 when the dialect bounds them otherwise. */
    private final long cancelAfterNanos;

    private final LockDialect dialect;

    /**
     * @param clock the application's clock, read for statements that bind the current time
     * @param cancelAfterNanos how long a statement runs before it is cancelled, or 0 for never
     * @param dialect the database's dialect, which reads the statements' warnings
     */
    BoundStatements(Clock clock, long cancelAfterNanos, LockDialect dialect) {
        this.clock = clock;
        this.cancelAfterNanos = cancelAfterNanos;
        this.dialect = dialect;
    }

    int update(Connection connection, TimedStatement timed, Object... args) throws SQLException {
        try (PreparedStatement statement = prepare(connection, timed, args)) {
            watch(statement);
            int count;
            try {
                count = statement.executeUpdate();
            }
            finally {
                unwatch(statement);
            }
            requireReplicated(statement);
            return count;
        }
    }

    <T> Optional<T> queryOne(Connection connection, TimedStatement timed, RowReader<T> reader, Object... args)
            throws SQLException {
        try (PreparedStatement statement = prepare(connection, timed, args); ResultSet rs = executeQuery(statement)) {
            return rs.next() ? Optional.of(reader.read(rs)) : Optional.empty();
        }
    }

    <T> List<T> queryAll(Connection connection, TimedStatement timed, RowReader<T> reader, Object... args)
            throws SQLException {
        try (PreparedStatement statement = prepare(connection, timed, args); ResultSet rs = executeQuery(statement)) {
            List<T> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(reader.read(rs));
            }
            return rows;
        }
    }

    /**
     * Runs a query that needs to return no row, to prove that what it names exists.
     *
     * @param connection where it runs
     * @param sql the query, with its time bound
     * @throws SQLException when it fails
     */
    void probe(Connection connection, String sql) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql); ResultSet rs = executeQuery(statement)) {
            rs.next();
        }
    }

    private PreparedStatement prepare(Connection connection, TimedStatement timed, Object... args)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement(timed.sql());
        try {
            timed.bind(statement, clock, args);
            return statement;
        }
        catch (SQLException | RuntimeException ex) {
            statement.close();
            throw ex;
        }
    }

    private ResultSet executeQuery(PreparedStatement statement) throws SQLException {
        watch(statement);
        ResultSet rs;
        try {
            rs = statement.executeQuery();
        }
        finally {
            unwatch(statement);
        }
        requireReplicated(statement);
        return rs;
    }

    /** Fails a statement whose commit stopped waiting for the synchronous standby, as its warnings tell. */
    private void requireReplicated(Statement statement) throws SQLException {
        for (SQLWarning warning = statement.getWarnings(); warning != null; warning = warning.getNextWarning()) {
            if (dialect.isUnreplicatedCommit(warning)) {
                throw new UnreplicatedCommitException(warning);
            }
        }
    }

    private void watch(PreparedStatement statement) {
        if (cancelAfterNanos > 0) {
            StatementCanceller.watch(statement, cancelAfterNanos);
        }
    }

    private void unwatch(PreparedStatement statement) {
        if (cancelAfterNanos > 0) {
            StatementCanceller.unwatch(statement);
        }
    }

    /** Reads the current row of a result set. */
    @FunctionalInterface
    interface RowReader<T> {

        T read(ResultSet rs) throws SQLException;
    }
}
