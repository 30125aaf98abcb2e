package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

import javax.sql.DataSource;

import io.distlock.core.LockArguments;
import io.distlock.core.TimeSource;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.jdbc.dialect.LockDialects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
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

    private static final String ADMIT = "fenced write check";

    private static final Logger logger = LoggerFactory.getLogger(FencingGuard.class);

    private final String table;

    private final LockDialect dialect;

    private final StatementExecutor executor;

    /** Inserts or raises the fence row; parameters name, token; returns the row's token when admitted. */
    private final TimedStatement admit;

    private final TimedStatement lastToken;

    private final List<FencingListener> listeners;

    private FencingGuard(DataSource dataSource, String table, LockDialect dialect, List<FencingListener> listeners) {
        this.table = table;
        this.listeners = List.copyOf(listeners);
        this.dialect = dialect;
        this.executor = new StatementExecutor(dataSource, table, Clock.systemUTC(), dialect, null);
        this.admit = TimedStatement.compile(dialect.fencingAdmit(table), dialect, TimeSource.DATABASE);
        this.lastToken = TimedStatement.compile("SELECT last_token FROM " + table + " WHERE name = ?", dialect,
                TimeSource.DATABASE);
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
        // Two first writes of a brand-new name may race; the second run sees the other row.
        boolean admitted = executor.againOnDuplicateKey(connection, ADMIT, admit,
                c -> executor.queryOne(c, admit, rs -> rs.getLong(1), name, token))
                .filter(last -> last == token).isPresent();
        if (!admitted) {
            tellRefused(name, token);
        }
        return admitted ? FencingResult.ACCEPTED : FencingResult.REFUSED;
    }

    private void tellRefused(String name, long token) {
        for (FencingListener listener : listeners) {
            try {
                listener.refused(name, token);
            }
            catch (RuntimeException ex) {
                logger.warn("Fencing listener {} failed", listener, ex);
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
        return executor.inCurrentTransaction(ADMIT, admit, connection -> admit(connection, name, token));
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
        return executor.runAlone("fencing token lookup", lastToken,
                connection -> executor.queryOne(connection, lastToken, rs -> rs.getLong(1), name))
                .map(OptionalLong::of).orElseGet(OptionalLong::empty);
    }

    /**
     * Checks that the fencing table exists, failing fast with a message that says how to create it.
     *
     * @throws IllegalStateException when the table is missing or lacks its columns
     */
    public void verifySchema() {
        FencingSchema.verify(executor, dialect, table);
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

        private final List<FencingListener> listeners = new ArrayList<>();

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
         * Adds a listener told of every write the guard refuses.
         *
         * @param listener the listener
         * @return this builder
         */
        public Builder listener(FencingListener listener) {
            this.listeners.add(Objects.requireNonNull(listener, "listener"));
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
            return new FencingGuard(dataSource, tableName, dialect != null ? dialect : LockDialects.detect(dataSource),
                    listeners);
        }
    }
}
