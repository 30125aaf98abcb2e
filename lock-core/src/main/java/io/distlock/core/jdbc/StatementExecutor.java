package io.distlock.core.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;

/**
 * Runs the statements of one table on a data source: either on a connection of their own in autocommit, outside any
 * transaction of the caller, or on the connection of the caller's current transaction. It binds arguments (and the
 * application's time, for {@link TimedStatement}s that take it), reads rows, translates {@link SQLException}s into
 * Spring's {@link DataAccessException}s, and retries deadlocks and serialization failures, which roll back the whole
 * statement.
 */
final class StatementExecutor {

    private static final Logger logger = LoggerFactory.getLogger(StatementExecutor.class);

    private static final int MAX_ATTEMPTS = 3;

    /** The data source as given: joins the caller's transaction. */
    private final DataSource dataSource;

    /** Behind any transaction-aware proxy: hands out connections of their own. */
    private final DataSource target;

    private final String table;

    private final Clock clock;

    private final SQLExceptionTranslator translator;

    /**
     * Creates an executor.
     *
     * @param dataSource where the table lives
     * @param table the table's name, for messages
     * @param clock the application's clock, read for statements that bind the current time
     */
    StatementExecutor(DataSource dataSource, Object table, Clock clock) {
        this.dataSource = dataSource;
        this.target = dataSource instanceof TransactionAwareDataSourceProxy proxy
                ? Objects.requireNonNull(proxy.getTargetDataSource()) : dataSource;
        this.table = table.toString();
        this.clock = clock;
        this.translator = new SQLErrorCodeSQLExceptionTranslator(target);
    }

    /**
     * Runs work on a connection of its own in autocommit, so that the caller's transaction can neither undo it nor be
     * poisoned by its failure. Deadlocks and serialization failures are retried a few times.
     *
     * @param task what the work does, for messages
     * @param timed the work's main statement, for messages
     * @param work the work
     * @return what the work returned
     * @throws DataAccessException when the work fails
     */
    <T> T runAlone(String task, TimedStatement timed, SqlWork<T> work) {
        for (int attempt = 1;; attempt++) {
            try (OwnConnection own = OwnConnection.open(target)) {
                return work.run(own.connection());
            }
            catch (SQLException ex) {
                DataAccessException translated = translate(task, timed.sql(), ex);
                if (translated instanceof PessimisticLockingFailureException && attempt < MAX_ATTEMPTS) {
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
        return translate(task, timed.sql(), ex) instanceof DuplicateKeyException;
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
        try (OwnConnection own = OwnConnection.open(target)) {
            for (String sql : queries) {
                try (PreparedStatement statement = own.connection().prepareStatement(sql);
                        ResultSet rs = statement.executeQuery()) {
                    rs.next();
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
        try (PreparedStatement statement = prepare(connection, timed, args)) {
            return statement.executeUpdate();
        }
    }

    <T> Optional<T> queryOne(Connection connection, TimedStatement timed, RowReader<T> reader, Object... args)
            throws SQLException {
        try (PreparedStatement statement = prepare(connection, timed, args); ResultSet rs = statement.executeQuery()) {
            return rs.next() ? Optional.of(reader.read(rs)) : Optional.empty();
        }
    }

    <T> List<T> queryAll(Connection connection, TimedStatement timed, RowReader<T> reader, Object... args)
            throws SQLException {
        try (PreparedStatement statement = prepare(connection, timed, args); ResultSet rs = statement.executeQuery()) {
            List<T> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(reader.read(rs));
            }
            return rows;
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

    DataAccessException translate(String task, @Nullable String sql, SQLException ex) {
        DataAccessException translated = translator.translate(task + " on " + table, sql, ex);
        return translated != null ? translated : new UncategorizedSQLException(task, sql, ex);
    }

    /** Work on a connection. */
    @FunctionalInterface
    interface SqlWork<T> {

        T run(Connection connection) throws SQLException;
    }

    /** Reads the current row of a result set. */
    @FunctionalInterface
    interface RowReader<T> {

        T read(ResultSet rs) throws SQLException;
    }

    /** A pooled connection in autocommit, given back in the commit mode it came in. */
    private record OwnConnection(Connection connection, boolean restoreManualCommit) implements AutoCloseable {

        static OwnConnection open(DataSource dataSource) throws SQLException {
            Connection connection = dataSource.getConnection();
            try {
                boolean restoreManualCommit = !connection.getAutoCommit();
                if (restoreManualCommit) {
                    connection.setAutoCommit(true);
                }
                return new OwnConnection(connection, restoreManualCommit);
            }
            catch (SQLException | RuntimeException ex) {
                connection.close();
                throw ex;
            }
        }

        @Override
        public void close() throws SQLException {
            try {
                if (restoreManualCommit) {
                    connection.setAutoCommit(false);
                }
            }
            finally {
                connection.close();
            }
        }
    }
}
