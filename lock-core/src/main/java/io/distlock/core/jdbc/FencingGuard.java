package io.distlock.core.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;
import java.util.OptionalLong;

import javax.sql.DataSource;

import io.distlock.core.LockArguments;
import io.distlock.core.jdbc.dialect.LockDialect;
import io.distlock.core.jdbc.dialect.LockDialects;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The protected resource's side of fencing: remembers, per protected resource, the highest fencing token it has
 * accepted, and admits a write only when the writer's token is at least that high. A holder that paused past its
 * lease and woke up still believing it holds the lock carries an older token than the holder that took over, so its
 * late write is refused once the newer holder has written.
 *
 * <p>The check is one conditional statement on a row of the fencing table ({@link FencingSchema}), run inside the
 * writer's own transaction: it inserts the row when absent, or raises its token, and keeps the row locked until the
 * transaction ends. The write it guards must go into the same transaction, so that the check and the write commit or
 * roll back together and writers of one resource commit in the order of their tokens.
 *
 * <pre>{@code
 * try (Lease lease = locks.tryAcquire("ledger:42", ttl).orElseThrow();
 *         Connection connection = dataSource.getConnection()) {
 *     connection.setAutoCommit(false);
 *     if (fence.admit(connection, "ledger:42", lease.token()).accepted()) {
 *         appendEntry(connection, entry);
 *     }
 *     connection.commit();
 * }
 * }</pre>
 *
 * <p>Equal tokens are accepted, so one holder may write several times. The statement waits for a row lock held by
 * another writer of the same resource. On MariaDB, two first writes of a brand-new resource may deadlock (InnoDB
 * rolls back one transaction), and under REPEATABLE READ or SERIALIZABLE on PostgreSQL a concurrent writer causes a
 * serialization failure: the caller retries its whole transaction, as for any other write.
 */
public final class FencingGuard {

    /** The table name the schema scripts use. */
    public static final String DEFAULT_TABLE_NAME = "fencing_tokens";

    private final DataSource dataSource;

    private final String table;

    private final LockDialect dialect;

    private final String admitSql;

    private final String lastTokenSql;

    private final SQLExceptionTranslator translator;

    private FencingGuard(DataSource dataSource, String table, LockDialect dialect) {
        this.dataSource = dataSource;
        this.table = table;
        this.dialect = dialect;
        this.admitSql = dialect.fencingAdmit(table);
        this.lastTokenSql = "SELECT last_token FROM " + table + " WHERE name = ?";
        this.translator = new SQLErrorCodeSQLExceptionTranslator(dataSource);
    }

    /**
     * Starts building a guard on the database that holds the fencing table.
     *
     * @param dataSource where the fencing table lives
     * @return the builder
     */
    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    /**
     * The fencing table in use.
     *
     * @return the table name
     */
    public String tableName() {
        return table;
    }

    /**
     * Decides a write on the caller's connection, inside the caller's transaction, and does not commit. When
     * accepted, the caller makes its write on the same connection and commits both; when refused, nothing changed.
     *
     * @param connection the caller's connection, with auto-commit off
     * @param name the protected resource's name (1 to 255 characters, no control characters)
     * @param token the writer's fencing token, from {@code Lease.token()}
     * @return whether the write may go ahead
     * @throws SQLException when the statement fails; the caller rolls back and may retry its transaction
     * @throws IllegalStateException when the connection is in auto-commit mode, where the check would commit apart
     *     from the write
     * @throws IllegalArgumentException for a bad name or a negative token
     */
    public FencingResult admit(Connection connection, String name, long token) throws SQLException {
        requireArguments(name, token);
        if (connection.getAutoCommit()) {
            throw new IllegalStateException("Fenced write to '" + name + "' on a connection in auto-commit mode: the "
                    + "check would commit apart from the write it guards; call setAutoCommit(false) first and commit "
                    + "the check together with the write");
        }
        try {
            return admitOnce(connection, name, token);
        }
        catch (SQLException ex) {
            if (!(translator.translate("fenced write check", admitSql, ex) instanceof DuplicateKeyException)) {
                throw ex;
            }
            // Two first writes of a brand-new name raced; the retry sees the other row.
            return admitOnce(connection, name, token);
        }
    }

    private FencingResult admitOnce(Connection connection, String name, long token) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(admitSql)) {
            statement.setString(1, name);
            statement.setLong(2, token);
            try (ResultSet rs = statement.executeQuery()) {
                return rs.next() && rs.getLong(1) == token ? FencingResult.ACCEPTED : FencingResult.REFUSED;
            }
        }
    }

    /**
     * Decides a write inside the current Spring-managed transaction on this guard's data source (for example in a
     * {@code @Transactional} method), which commits the check together with the write.
     *
     * @param name the protected resource's name (1 to 255 characters, no control characters)
     * @param token the writer's fencing token, from {@code Lease.token()}
     * @return whether the write may go ahead
     * @throws IllegalStateException when no transaction on this guard's data source is active
     * @throws IllegalArgumentException for a bad name or a negative token
     * @throws DataAccessException when the statement fails
     */
    public FencingResult admit(String name, long token) {
        requireArguments(name, token);
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("Fenced write to '" + name + "' outside a transaction: run it in the "
                    + "Spring-managed transaction of the write it guards, or use admit(Connection, name, token)");
        }
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            return admit(connection, name, token);
        }
        catch (SQLException ex) {
            throw translate("fenced write check", admitSql, ex);
        }
        finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }

    /**
     * Reads the highest token accepted for a protected resource, on a connection of its own.
     *
     * @param name the protected resource's name
     * @return the token, or empty when no write was ever admitted
     * @throws DataAccessException when the query fails
     */
    public OptionalLong lastToken(String name) {
        LockArguments.requireResource(name);
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(lastTokenSql)) {
            statement.setString(1, name);
            try (ResultSet rs = statement.executeQuery()) {
                return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        }
        catch (SQLException ex) {
            throw translate("fencing token lookup", lastTokenSql, ex);
        }
    }

    /**
     * Checks that the fencing table exists, failing fast with a message that says how to create it.
     *
     * @throws IllegalStateException when the table is missing or lacks its columns
     */
    public void verifySchema() {
        String check = "SELECT name, last_token FROM " + table + " WHERE 1 = 0";
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(check);
                ResultSet rs = statement.executeQuery()) {
            rs.next();
        }
        catch (SQLException ex) {
            throw new IllegalStateException("Fencing table '" + table + "' (columns name, last_token) is missing or "
                    + "unreadable: " + ex.getMessage().strip() + ". Create it with the script "
                    + dialect.fencingSchemaLocation() + " from the lock-core jar (renaming " + DEFAULT_TABLE_NAME + " to "
                    + table + "), or FencingSchema.script(dialect, \"" + table + "\")", ex);
        }
    }

    static String requireTableName(@Nullable String tableName) {
        return SqlIdentifier.requireTableName("Fencing table name", tableName, SqlIdentifier.MAX_LENGTH);
    }

    private static void requireArguments(String name, long token) {
        LockArguments.requireResource(name);
        if (token < 0) {
            throw new IllegalArgumentException("fencing token must not be negative, got " + token);
        }
    }

    private DataAccessException translate(String task, String sql, SQLException ex) {
        DataAccessException translated = translator.translate(task + " on " + table, sql, ex);
        return translated != null ? translated : new UncategorizedSQLException(task, sql, ex);
    }

    @Override
    public String toString() {
        return "FencingGuard[table=" + table + ", database=" + dialect.name() + "]";
    }

    /**
     * Configures a {@link FencingGuard}.
     */
    public static final class Builder {

        private final DataSource dataSource;

        private String tableName = DEFAULT_TABLE_NAME;

        private @Nullable LockDialect dialect;

        private Builder(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        }

        /**
         * Sets the fencing table's name; default {@value FencingGuard#DEFAULT_TABLE_NAME}.
         *
         * @param tableName a plain SQL identifier, optionally schema-qualified
         * @return this builder
         * @throws IllegalArgumentException when the name is not a plain identifier
         */
        public Builder tableName(String tableName) {
            this.tableName = requireTableName(tableName);
            return this;
        }

        /**
         * Sets the database's dialect instead of detecting it from the JDBC product name.
         *
         * @param dialect the database's dialect, or {@code null} to detect
         * @return this builder
         */
        public Builder dialect(@Nullable LockDialect dialect) {
            this.dialect = dialect;
            return this;
        }

        /**
         * Builds the guard, detecting the dialect when none was set.
         *
         * @return the guard
         * @throws IllegalStateException when the dialect is to be detected and the database is not supported or does
         *     not answer
         */
        public FencingGuard build() {
            return new FencingGuard(dataSource, tableName, dialect != null ? dialect : LockDialects.detect(dataSource));
        }
    }
}
