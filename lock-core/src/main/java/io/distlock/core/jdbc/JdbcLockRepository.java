package io.distlock.core.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import javax.sql.DataSource;

import io.distlock.core.LeaseKey;
import io.distlock.core.LockArguments;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.LockResult;
import io.distlock.core.RenewResult;
import io.distlock.core.TimeSource;
import io.distlock.core.jdbc.dialect.LockDialect;
import io.distlock.core.jdbc.dialect.LockDialects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;

/**
 * The lock table on plain JDBC. Every decision is one statement whose {@code WHERE} carries the whole condition,
 * with time read from the database clock (unless {@link TimeSource#APPLICATION} is chosen). Statements run on a
 * connection taken straight from the {@link DataSource} in autocommit, never on the caller's transactional
 * connection: a caller's rollback cannot undo a lock operation, and a lock statement's failure cannot poison the
 * caller's transaction. Deadlocks and serialization failures, which roll the whole statement back, are retried a
 * few times.
 */
public final class JdbcLockRepository implements LockRepository {

    private static final Logger logger = LoggerFactory.getLogger(JdbcLockRepository.class);

    private static final int MAX_ATTEMPTS = 3;

    /**
     * Shortest retention of expired rows: an acquire that drew its token before a row was deleted must have inserted
     * long before, or a smaller token could follow a larger one.
     */
    public static final Duration MIN_RETENTION = Duration.ofMinutes(1);

    /** Keeps durations inside what every database's interval arithmetic accepts. */
    private static final Duration MAX_DURATION = Duration.ofDays(3650);

    private final DataSource dataSource;

    private final LockDialect dialect;

    private final LockTableName table;

    private final TimeSource timeSource;

    private final Clock clock;

    private final Duration maxTtl;

    private final SQLExceptionTranslator translator;

    private final LockStatements statements;

    private JdbcLockRepository(Builder builder, LockDialect dialect) {
        this.dataSource = builder.dataSource instanceof TransactionAwareDataSourceProxy proxy
                ? Objects.requireNonNull(proxy.getTargetDataSource()) : builder.dataSource;
        this.dialect = dialect;
        this.table = builder.table;
        this.timeSource = builder.timeSource;
        this.clock = builder.clock;
        this.maxTtl = builder.maxTtl;
        this.translator = new SQLErrorCodeSQLExceptionTranslator(dataSource);
        this.statements = new LockStatements(dialect, table, builder.timeSource);
    }

    /**
     * Starts building a repository on a data source.
     *
     * @param dataSource where the lock table lives
     * @return the builder
     */
    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    /**
     * The dialect in use.
     *
     * @return the dialect, detected or configured
     */
    public LockDialect dialect() {
        return dialect;
    }

    /**
     * The lock table in use.
     *
     * @return the table name
     */
    public LockTableName table() {
        return table;
    }

    @Override
    public Optional<LockRecord> acquire(String resource, String owner, Duration ttl) {
        LockArguments.requireResource(resource);
        LockArguments.requireOwner(owner);
        long ttlMillis = LockArguments.requireTtl(ttl, maxTtl).toMillis();
        return execute("acquire", statements.acquire, connection -> {
            try {
                return acquireOnce(connection, resource, owner, ttlMillis);
            }
            catch (SQLException ex) {
                if (!(translate("acquire", statements.acquire, ex) instanceof DuplicateKeyException)) {
                    throw ex;
                }
                // Two first claims of a brand-new resource raced; the retry sees the winner's row.
                try {
                    return acquireOnce(connection, resource, owner, ttlMillis);
                }
                catch (SQLException again) {
                    if (translate("acquire", statements.acquire, again) instanceof DuplicateKeyException) {
                        return Optional.empty();
                    }
                    throw again;
                }
            }
        });
    }

    private Optional<LockRecord> acquireOnce(Connection connection, String resource, String owner, long ttlMillis)
            throws SQLException {
        try (PreparedStatement statement = prepare(connection, statements.acquire, resource, owner, ttlMillis);
                ResultSet rs = statement.executeQuery()) {
            if (rs.next()) {
                LockRecord record = readRecord(rs);
                if (record.owner().equals(owner)) {
                    return Optional.of(record);
                }
            }
            return Optional.empty();
        }
    }

    @Override
    public RenewResult renew(String resource, String owner, Duration ttl) {
        LockArguments.requireResource(resource);
        LockArguments.requireOwner(owner);
        long ttlMillis = LockArguments.requireTtl(ttl, maxTtl).toMillis();
        return execute("renew", statements.renew, connection -> {
            Optional<LockRecord> renewed = statements.renewReturnsRow
                    ? queryOne(connection, statements.renew, ttlMillis, resource, owner)
                    : renewThenRead(connection, resource, owner, ttlMillis);
            if (renewed.isPresent()) {
                return RenewResult.renewed(renewed.get());
            }
            return RenewResult.refused(refusal(connection, resource, owner) == LockResult.FORBIDDEN
                    ? LockResult.FORBIDDEN : LockResult.NOT_FOUND);
        });
    }

    private Optional<LockRecord> renewThenRead(Connection connection, String resource, String owner, long ttlMillis)
            throws SQLException {
        if (update(connection, statements.renew, ttlMillis, resource, owner) == 0) {
            return Optional.empty();
        }
        return queryOne(connection, statements.findOwned, resource, owner);
    }

    @Override
    public Map<LeaseKey, LockRecord> renewAll(Collection<LeaseKey> leases, Duration ttl) {
        long ttlMillis = LockArguments.requireTtl(ttl, maxTtl).toMillis();
        List<LeaseKey> keys = new ArrayList<>(new LinkedHashSet<>(leases));
        Map<LeaseKey, LockRecord> renewed = new LinkedHashMap<>();
        int batch = dialect.maxRenewBatch();
        for (int from = 0; from < keys.size(); from += batch) {
            List<LeaseKey> chunk = keys.subList(from, Math.min(keys.size(), from + batch));
            TimedStatement statement = statements.renewAll(chunk.size());
            Object[] args = new Object[1 + chunk.size() * 2];
            args[0] = ttlMillis;
            Object[] pairs = pairs(chunk);
            System.arraycopy(pairs, 0, args, 1, pairs.length);
            List<LockRecord> records = execute("renew", statement, connection -> {
                if (statements.renewReturnsRow) {
                    return queryAll(connection, statement, args);
                }
                update(connection, statement, args);
                return queryAll(connection, statements.findAllOwned(chunk.size()), pairs);
            });
            for (LockRecord record : records) {
                renewed.put(record.key(), record);
            }
        }
        return renewed;
    }

    @Override
    public LockResult release(String resource, String owner, Duration minHold) {
        LockArguments.requireResource(resource);
        LockArguments.requireOwner(owner);
        long minHoldMillis = LockArguments.requireDuration("minHold", minHold, Duration.ZERO, maxTtl).toMillis();
        return execute("release", statements.release, connection -> {
            if (update(connection, statements.release, minHoldMillis, resource, owner) == 1) {
                return LockResult.APPLIED;
            }
            return refusal(connection, resource, owner);
        });
    }

    /**
     * After an update that changed no row: tells "no live lock" from "another owner's live lock". A live lock of the
     * caller's own means the update matched but changed nothing (a minimum hold equal to the current expiry, with a
     * driver that counts changed rows, such as Connector/J with {@code useAffectedRows=true}): released.
     */
    private LockResult refusal(Connection connection, String resource, String owner) throws SQLException {
        try (PreparedStatement statement = prepare(connection, statements.state, resource);
                ResultSet rs = statement.executeQuery()) {
            if (rs.next() && rs.getInt(2) == 1) {
                return rs.getString(1).equals(owner) ? LockResult.APPLIED : LockResult.FORBIDDEN;
            }
            return LockResult.NOT_FOUND;
        }
    }

    @Override
    public Optional<LockRecord> find(String resource) {
        LockArguments.requireResource(resource);
        return execute("find", statements.find, connection -> queryOne(connection, statements.find, resource));
    }

    @Override
    public List<LockRecord> findAll() {
        return execute("findAll", statements.findAll, connection -> queryAll(connection, statements.findAll));
    }

    @Override
    public int deleteExpired(Duration retention) {
        long millis = LockArguments.requireDuration("retention", retention, MIN_RETENTION, MAX_DURATION).toMillis();
        int deleted = execute("deleteExpired", statements.deleteExpired,
                connection -> update(connection, statements.deleteExpired, -millis));
        if (deleted > 0) {
            logger.debug("Deleted {} lock rows expired more than {} ago from {}", deleted, retention, table);
        }
        return deleted;
    }

    @Override
    public void verifySchema() {
        String check = "SELECT " + LockDialect.COLUMNS + " FROM " + table + " WHERE 1 = 0";
        String sequence = dialect.checkSequence(table.sequence());
        try (Session session = open()) {
            for (String sql : List.of(check, sequence)) {
                try (PreparedStatement statement = session.connection().prepareStatement(sql);
                        ResultSet rs = statement.executeQuery()) {
                    rs.next();
                }
                catch (SQLException ex) {
                    DataAccessException translated = translator.translate("verify lock table", sql, ex);
                    if (translated instanceof BadSqlGrammarException) {
                        throw new LockTableMissingException(missingTableMessage(ex), ex);
                    }
                    throw translated != null ? translated : new UncategorizedSQLException("verify", sql, ex);
                }
            }
        }
        catch (SQLException ex) {
            throw Objects.requireNonNull(translate("verify lock table", null, ex));
        }
    }

    private String missingTableMessage(SQLException ex) {
        return "Lock table '" + table + "' (columns " + LockDialect.COLUMNS + ") or its token sequence '"
                + table.sequence() + "' is missing in " + dialect.name() + ": " + ex.getMessage().strip()
                + ". Create them with the script " + dialect.schemaLocation() + " from the lock-core jar"
                + (table.equals(LockTableName.DEFAULT) ? "" : " (renaming distributed_locks to " + table + ")")
                + ", or let the Spring Boot "
                + "starter do it with distributed-lock.jdbc.initialize-schema=always";
    }

    private PreparedStatement prepare(Connection connection, TimedStatement timed, Object... args) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(timed.sql());
        try {
            timed.bind(statement, timeSource == TimeSource.APPLICATION ? clock.instant() : Instant.EPOCH, args);
            return statement;
        }
        catch (SQLException | RuntimeException ex) {
            statement.close();
            throw ex;
        }
    }

    private int update(Connection connection, TimedStatement timed, Object... args) throws SQLException {
        try (PreparedStatement statement = prepare(connection, timed, args)) {
            return statement.executeUpdate();
        }
    }

    private Optional<LockRecord> queryOne(Connection connection, TimedStatement timed, Object... args)
            throws SQLException {
        try (PreparedStatement statement = prepare(connection, timed, args); ResultSet rs = statement.executeQuery()) {
            return rs.next() ? Optional.of(readRecord(rs)) : Optional.empty();
        }
    }

    private List<LockRecord> queryAll(Connection connection, TimedStatement timed, Object... args)
            throws SQLException {
        try (PreparedStatement statement = prepare(connection, timed, args); ResultSet rs = statement.executeQuery()) {
            List<LockRecord> records = new ArrayList<>();
            while (rs.next()) {
                records.add(readRecord(rs));
            }
            return records;
        }
    }

    private LockRecord readRecord(ResultSet rs) throws SQLException {
        return new LockRecord(rs.getString(1), rs.getString(2), rs.getLong(3), dialect.readInstant(rs, 4),
                dialect.readInstant(rs, 5));
    }

    private <T> T execute(String operation, TimedStatement timed, SqlWork<T> work) {
        for (int attempt = 1;; attempt++) {
            try (Session session = open()) {
                return work.run(session.connection());
            }
            catch (SQLException ex) {
                DataAccessException translated = translate(operation, timed, ex);
                if (translated instanceof PessimisticLockingFailureException && attempt < MAX_ATTEMPTS) {
                    logger.debug("Retrying {} after {} (attempt {})", operation, ex.getMessage(), attempt);
                    continue;
                }
                throw translated;
            }
        }
    }

    private DataAccessException translate(String operation, @Nullable TimedStatement timed, SQLException ex) {
        String sql = timed != null ? timed.sql() : null;
        DataAccessException translated = translator.translate("distributed lock " + operation + " on " + table, sql, ex);
        return translated != null ? translated : new UncategorizedSQLException(operation, sql, ex);
    }

    private Session open() throws SQLException {
        Connection connection = dataSource.getConnection();
        try {
            boolean restoreManualCommit = !connection.getAutoCommit();
            if (restoreManualCommit) {
                connection.setAutoCommit(true);
            }
            return new Session(connection, restoreManualCommit);
        }
        catch (SQLException | RuntimeException ex) {
            connection.close();
            throw ex;
        }
    }

    private static Object[] pairs(List<LeaseKey> keys) {
        Object[] args = new Object[keys.size() * 2];
        for (int i = 0; i < keys.size(); i++) {
            args[2 * i] = keys.get(i).resource();
            args[2 * i + 1] = keys.get(i).owner();
        }
        return args;
    }

    @FunctionalInterface
    private interface SqlWork<T> {

        T run(Connection connection) throws SQLException;
    }

    /** A pooled connection in autocommit, given back in the commit mode it came in. */
    private record Session(Connection connection, boolean restoreManualCommit) implements AutoCloseable {

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

    /**
     * Configures a {@link JdbcLockRepository}.
     */
    public static final class Builder {

        private final DataSource dataSource;

        private LockTableName table = LockTableName.DEFAULT;

        private @Nullable LockDialect dialect;

        private TimeSource timeSource = TimeSource.DATABASE;

        private Clock clock = Clock.systemUTC();

        private Duration maxTtl = Duration.ofDays(1);

        private Builder(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        }

        /**
         * Sets the lock table's name; default {@code distributed_locks}.
         *
         * @param tableName a plain SQL identifier, optionally schema-qualified
         * @return this builder
         */
        public Builder tableName(String tableName) {
            this.table = new LockTableName(tableName);
            return this;
        }

        /**
         * Sets the dialect instead of detecting it from the JDBC product name.
         *
         * @param dialect the dialect, or {@code null} to detect
         * @return this builder
         */
        public Builder dialect(@Nullable LockDialect dialect) {
            this.dialect = dialect;
            return this;
        }

        /**
         * Chooses whose clock decides expiry; default {@link TimeSource#DATABASE}.
         *
         * @param timeSource the time source
         * @return this builder
         */
        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = Objects.requireNonNull(timeSource, "timeSource");
            return this;
        }

        /**
         * Sets the clock read in {@link TimeSource#APPLICATION} mode; ignored in database-time mode.
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Sets the longest lease accepted; default one day. Longer TTLs are rejected as a likely unit mistake.
         *
         * @param maxTtl the cap
         * @return this builder
         */
        public Builder maxTtl(Duration maxTtl) {
            this.maxTtl = LockArguments.requireDuration("maxTtl", maxTtl, LockArguments.MIN_TTL, MAX_DURATION);
            return this;
        }

        /**
         * Builds the repository, detecting the dialect when none was set.
         *
         * @return the repository
         */
        public JdbcLockRepository build() {
            return new JdbcLockRepository(this, dialect != null ? dialect : LockDialects.detect(dataSource));
        }
    }
}
