package io.distlock.jdbc;

import java.sql.Array;
import java.sql.Connection;
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
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import javax.sql.DataSource;

import io.distlock.core.BatchRenewal;
import io.distlock.core.ForcedRelease;
import io.distlock.core.LeaseKey;
import io.distlock.core.LockArguments;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.LockResult;
import io.distlock.core.ReleaseFeed;
import io.distlock.core.ReleaseFeeds;
import io.distlock.core.RenewResult;
import io.distlock.core.RenewalCapacity;
import io.distlock.core.SchemaVerification;
import io.distlock.core.SlotClaim;
import io.distlock.core.SlotRun;
import io.distlock.core.SlotRunOutcome;
import io.distlock.core.SlotStore;
import io.distlock.core.TimeSource;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.jdbc.dialect.LockDialects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.util.ClassUtils;

/**
 * The lock table on plain JDBC. Every decision is one statement whose {@code WHERE} carries the whole condition,
 * with time read from the database clock (unless {@link TimeSource#APPLICATION} is chosen). Statements run on a
 * connection of their own in autocommit, never on the caller's transactional connection, whatever wraps the
 * {@link DataSource}: connections come from behind the deepest {@link
 * org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy} in its chain of wrappers, and a connection
 * that comes in manual-commit mode or held by a Spring transaction on the calling thread is refused, naming the data
 * source. So a caller's rollback cannot undo a lock operation, a lock call cannot commit the caller's pending work,
 * and a lock statement's failure cannot poison the caller's transaction. On a pool whose connections default to an
 * isolation level the dialect's statements do not keep their guarantees at (PostgreSQL at {@code REPEATABLE READ}
 * or {@code SERIALIZABLE}), they run at {@code READ COMMITTED} and the connection gets its level back afterwards:
 * two round trips per call, which a {@code READ COMMITTED} pool avoids. Each connection's level is read once and
 * remembered. Deadlocks and serialization failures, which roll the whole statement back, are retried a few times.
 *
 * <p>Every statement is bounded in time ({@link Builder#statementTimeout}), including one that waits for a row lock
 * another session holds: it is then rolled back by the database and fails with a
 * {@link org.springframework.dao.QueryTimeoutException} — except {@link #acquire}, which answers "not acquired".
 */
public final class JdbcLockRepository implements LockRepository, BatchRenewal, ForcedRelease, SlotStore, ReleaseFeeds,
        RenewalCapacity, SchemaVerification {

    private static final Logger logger = LoggerFactory.getLogger(JdbcLockRepository.class);

    private static final String ACQUIRE = "distributed lock acquire";

    private static final String RENEW = "distributed lock renew";

    private static final String RELEASE = "distributed lock release";

    private static final String FORCE_RELEASE = "distributed lock forced release";

    /**
     * Shortest retention of expired rows: an acquire that drew its token before a row was deleted must have inserted
     * long before, or a smaller token could follow a larger one.
     */
    public static final Duration MIN_RETENTION = LockArguments.MIN_RETENTION;

    /** The default bound of each statement. */
    public static final Duration DEFAULT_STATEMENT_TIMEOUT = Duration.ofSeconds(5);

    /** The shortest statement timeout. */
    public static final Duration MIN_STATEMENT_TIMEOUT = Duration.ofSeconds(1);

    private static final Duration MAX_STATEMENT_TIMEOUT = Duration.ofDays(1);

    private final LockDialect dialect;

    private final LockTableName table;

    private final LockArguments arguments;

    private final Duration statementTimeout;

    private final boolean durableRelease;

    private final StatementExecutor executor;

    private final LockStatements statements;

    private final JdbcSlotStore slots;

    private final RenewalConnection renewals;

    /** The one listener of release notifications every manager on this repository shares. */
    private final SharedReleaseFeed releaseFeed;

    /** The channel releases notify and waiters listen on, or {@code null} when waiters only poll. */
    private final @Nullable String channel;

    private JdbcLockRepository(Builder builder, LockDialect dialect) {
        this.dialect = dialect;
        this.table = builder.table;
        this.arguments = LockArguments.withMaxTtl(builder.maxTtl);
        this.statementTimeout = builder.statementTimeout;
        this.durableRelease = builder.durableRelease;
        this.executor = new StatementExecutor(builder.dataSource, table, builder.clock, dialect, statementTimeout);
        String notifyOn = builder.notifyWaiters ? table.notificationChannel() : null;
        this.statements = new LockStatements(dialect, table, builder.timeSource, executor::bound,
                builder.durableRelease, notifyOn);
        this.channel = statements.releaseNotifies ? notifyOn : null;
        this.releaseFeed = new SharedReleaseFeed(heard -> new PostgreSqlReleaseFeed(executor, channel,
                table.value(), heard, PostgreSqlReleaseFeed.DEFAULT_LINGER));
        this.renewals = new RenewalConnection(executor);
        this.slots = new JdbcSlotStore(executor, dialect, table, builder.timeSource);
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

    /**
     * The bound of each statement.
     *
     * @return the statement timeout
     */
    public Duration statementTimeout() {
        return statementTimeout;
    }

    /**
     * Whether each release waits until its commit is durable ({@link Builder#durableRelease}).
     *
     * @return {@code false} when a release on PostgreSQL commits without waiting for the WAL flush
     */
    public boolean durableRelease() {
        return durableRelease;
    }

    /**
     * Whether releases that free a lock notify waiters, and waiters listen: {@link Builder#notifyWaiters} on a
     * database that can (PostgreSQL).
     *
     * @return {@code true} when releases notify
     */
    public boolean notifiesWaiters() {
        return channel != null;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Waits for a row lock another session holds at most the statement timeout, and then answers "not acquired":
     * the database rolled the statement back, so nothing was written. A lease handed out is live by the database
     * clock when the statement ends: after a wait for the row's lock its times are read again under the lock, and an
     * acquire that took at least its TTL is checked once more before its lease is handed out.
     */
    @Override
    public Optional<LockRecord> acquire(String resource, String owner, Duration ttl) {
        long ttlMillis = arguments.lease(resource, owner, ttl);
        long ttlNanos = TimeUnit.MILLISECONDS.toNanos(ttlMillis);
        TimedStatement acquire = statements.acquire;
        try {
            return executor.runAlone(ACQUIRE, acquire, connection -> {
                try {
                    long sentAt = System.nanoTime();
                    // Two first claims of a brand-new resource may race; the second run sees the winner's row.
                    Optional<LockRecord> acquired = executor.againOnDuplicateKey(connection, ACQUIRE, acquire,
                            c -> executor.queryOne(c, acquire, statements::record, resource, owner, ttlMillis))
                            .filter(record -> record.owner().equals(owner));
                    if (acquired.isPresent() && System.nanoTime() - sentAt >= ttlNanos) {
                        return stillLive(connection, acquired.get());
                    }
                    return acquired;
                }
                catch (SQLException ex) {
                    if (executor.isDuplicateKey(ACQUIRE, acquire, ex)) {
                        return Optional.empty();
                    }
                    throw ex;
                }
            });
        }
        catch (QueryTimeoutException ex) {
            // Rolled back by the database: most likely another session holds the row locked.
            logger.debug("Not acquired '{}' on {}: {}", resource, table, ex.getMessage());
            return Optional.empty();
        }
    }

    /**
     * After an acquire that took at least its TTL, most likely waiting for a row lock: a database whose clock stands
     * still within a statement (H2) computed the lease from the time before the wait, so it may be over already.
     * Hands it out only if it is still live by the database clock, and still this acquisition's.
     */
    private Optional<LockRecord> stillLive(Connection connection, LockRecord acquired) throws SQLException {
        return executor.queryOne(connection, statements.find, statements::record, acquired.resource())
                .filter(record -> record.owner().equals(acquired.owner()) && record.token() == acquired.token());
    }

    @Override
    public RenewResult renew(String resource, String owner, Duration ttl) {
        long ttlMillis = arguments.lease(resource, owner, ttl);
        return executor.runAlone(RENEW, statements.renew, connection -> {
            Optional<LockRecord> renewed = statements.renewReturnsRow
                    ? executor.queryOne(connection, statements.renew, statements::record, ttlMillis, resource, owner)
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
        if (executor.update(connection, statements.renew, ttlMillis, resource, owner) == 0) {
            return Optional.empty();
        }
        return executor.queryOne(connection, statements.findOwned, statements::record, resource, owner);
    }

    @Override
    public Map<LeaseKey, LockRecord> renewAll(Collection<LeaseKey> leases, Duration ttl) {
        long ttlMillis = arguments.leases(leases, ttl);
        List<LeaseKey> keys = new ArrayList<>(new LinkedHashSet<>(leases));
        Map<LeaseKey, LockRecord> renewed = new LinkedHashMap<>();
        int batch = dialect.maxRenewBatch();
        for (int from = 0; from < keys.size(); from += batch) {
            List<LeaseKey> chunk = keys.subList(from, Math.min(keys.size(), from + batch));
            if (statements.renewAllByArrays != null) {
                for (LockRecord record : renewByArrays(statements.renewAllByArrays, ttlMillis, chunk)) {
                    renewed.put(record.key(), record);
                }
                continue;
            }
            List<LockRecord> records = renewals.run(RENEW, statements.renewAll(chunk.size()),
                    connection -> renewPassingOverLockedRows(connection, chunk, ttlMillis));
            for (LockRecord record : records) {
                renewed.put(record.key(), record);
            }
        }
        return renewed;
    }

    /**
     * Renews a batch without waiting for a row another session holds locked, so that one stuck row holds up neither
     * the batch nor, through the rows the batch would keep locked while it waits, the releases of the other leases:
     * where the dialect can, the batch gives up at once on such a row; then, or where it cannot, the free rows are
     * locked first ({@code FOR UPDATE SKIP LOCKED}) and renewed in a transaction. A lease passed over is missing from
     * the answer; the watchdog renews it on its own.
     */
    private List<LockRecord> renewPassingOverLockedRows(Connection connection, List<LeaseKey> chunk, long ttlMillis)
            throws SQLException {
        TimedStatement failing = statements.renewAllFailingOnLockedRows(chunk.size());
        if (failing != null) {
            try {
                return renewChunk(connection, failing, chunk, ttlMillis);
            }
            catch (SQLException ex) {
                if (!dialect.isLockedRow(ex)) {
                    throw ex;
                }
            }
        }
        return StatementExecutor.inTransaction(connection, () -> {
            List<LeaseKey> free = lockFree(connection, chunk);
            return free.isEmpty() ? List.of()
                    : renewChunk(connection, statements.renewAll(free.size()), free, ttlMillis);
        });
    }

    private List<LockRecord> renewChunk(Connection connection, TimedStatement statement, List<LeaseKey> chunk,
            long ttlMillis) throws SQLException {
        Object[] args = LockStatements.renewAllArguments(ttlMillis, chunk);
        if (statements.renewReturnsRow) {
            return executor.queryAll(connection, statement, statements::record, args);
        }
        executor.update(connection, statement, args);
        return executor.queryAll(connection, statements.findAllOwned(chunk.size()), statements::record,
                LockStatements.pairs(chunk));
    }

    /** Locks the live rows of a batch that no other session holds locked, in the transaction in progress. */
    private List<LeaseKey> lockFree(Connection connection, List<LeaseKey> chunk) throws SQLException {
        return executor.queryAll(connection, statements.lockFree(chunk.size()),
                rs -> new LeaseKey(rs.getString(1), rs.getString(2)), LockStatements.pairs(chunk));
    }

    private List<LockRecord> renewByArrays(TimedStatement statement, long ttlMillis, List<LeaseKey> chunk) {
        String[] resources = chunk.stream().map(LeaseKey::resource).toArray(String[]::new);
        String[] owners = chunk.stream().map(LeaseKey::owner).toArray(String[]::new);
        return renewals.run(RENEW, statement, connection -> {
            Array resourceArray = connection.createArrayOf("text", resources);
            Array ownerArray = connection.createArrayOf("text", owners);
            try {
                return executor.queryAll(connection, statement, statements::record, resourceArray, ownerArray,
                        ttlMillis);
            }
            finally {
                resourceArray.free();
                ownerArray.free();
            }
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>Reserving takes a connection at once and keeps it out of the pool for every renewal while the reservation
     * lasts, so that the watchdog keeps leases alive even while the guarded work holds every other connection: size
     * the pool for the guarded work's connections + 1. A reserved connection that fails is closed
     * and replaced by the next renewal, or before the guarded work of the next lease to be kept alive. When renewal cannot get a connection, that is told at WARN, naming the data
     * source.
     */
    @Override
    public void reserveForRenewals(Object holder, boolean reserve) {
        renewals.reserve(holder, reserve);
    }

    /**
     * {@inheritDoc}
     *
     * <p>On PostgreSQL the release commits without waiting for the WAL flush, unless the repository was built with
     * {@link Builder#durableRelease durableRelease(true)}: a release lost in a crash of the database leaves the lock
     * held by this owner until its TTL.
     */
    @Override
    public LockResult release(String resource, String owner, Duration minHold) {
        long minHoldMillis = arguments.release(resource, owner, minHold);
        return executor.runAlone(RELEASE, statements.release, connection -> {
            boolean released = statements.releaseNotifies
                    ? executor.queryOne(connection, statements.release, rs -> true, minHoldMillis, resource, owner)
                            .isPresent()
                    : executor.update(connection, statements.release, minHoldMillis, resource, owner) == 1;
            return released ? LockResult.APPLIED : refusal(connection, resource, owner);
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>One statement expires the row of the live lock with that token and blanks its owner, which no caller can
     * present, so that every next holder draws a new token from the sequence. It commits durably, and on PostgreSQL
     * notifies waiters as a release does.
     */
    @Override
    public LockResult forceRelease(String resource, long token) {
        LockArguments.requireResource(resource);
        return executor.runAlone(FORCE_RELEASE, statements.forceRelease, connection -> {
            boolean released = statements.releaseNotifies
                    ? executor.queryOne(connection, statements.forceRelease, rs -> true, resource, token).isPresent()
                    : executor.update(connection, statements.forceRelease, resource, token) == 1;
            if (released) {
                return LockResult.APPLIED;
            }
            return executor.queryOne(connection, statements.liveToken, rs -> rs.getLong(1), resource)
                    .map(live -> LockResult.FORBIDDEN).orElse(LockResult.NOT_FOUND);
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>On PostgreSQL, unless {@link Builder#notifyWaiters} is off: a release that frees a lock notifies the table's
     * channel ({@link LockTableName#notificationChannel()}) with the resource, and one feed per repository, shared by
     * every manager on it, listens on one connection of its own, taken from the data source when a thread starts
     * waiting and given back 30 seconds after the last one stopped, or when the last manager closes. Size the pool for
     * it: one more connection while threads wait. Other databases answer {@link ReleaseFeed#NONE}: their waiters poll.
     */
    @Override
    public ReleaseFeed openReleaseFeed(Consumer<String> listener) {
        if (channel == null) {
            return ReleaseFeed.NONE;
        }
        if (!ClassUtils.isPresent("org.postgresql.PGConnection", JdbcLockRepository.class.getClassLoader())) {
            logger.warn("Releases on {} notify channel {}, but pgjdbc (org.postgresql.PGConnection) is not on the "
                    + "class path to listen with: waiters poll", table, channel);
            return ReleaseFeed.NONE;
        }
        return releaseFeed.subscribe(listener);
    }

    /**
     * After an update that changed no row: tells "no live lock" from "another owner's live lock". A live lock of the
     * caller's own means the update matched but changed nothing (a minimum hold equal to the current expiry, with a
     * driver that counts changed rows, such as Connector/J with {@code useAffectedRows=true}): released.
     */
    private LockResult refusal(Connection connection, String resource, String owner) throws SQLException {
        return executor.queryOne(connection, statements.liveOwner, rs -> rs.getString(1), resource)
                .map(liveOwner -> liveOwner.equals(owner) ? LockResult.APPLIED : LockResult.FORBIDDEN)
                .orElse(LockResult.NOT_FOUND);
    }

    @Override
    public Optional<LockRecord> find(String resource) {
        LockArguments.requireResource(resource);
        return executor.runAlone("distributed lock find", statements.find,
                connection -> executor.queryOne(connection, statements.find, statements::record, resource));
    }

    @Override
    public List<LockRecord> findAll() {
        return executor.runAlone("distributed lock findAll", statements.findAll,
                connection -> executor.queryAll(connection, statements.findAll, statements::record));
    }

    @Override
    public LockArguments arguments() {
        return arguments;
    }

    @Override
    public int deleteExpired(Duration retention) {
        long millis = LockArguments.retention(retention);
        int deleted;
        try {
            // Rows of scheduled jobs stay: they carry the job's last claimed slot.
            deleted = executor.runAlone("distributed lock deleteExpired", statements.deleteExpiredKeepingJobs,
                    connection -> executor.update(connection, statements.deleteExpiredKeepingJobs, -millis));
        }
        catch (BadSqlGrammarException noSlotColumns) {
            deleted = executor.runAlone("distributed lock deleteExpired", statements.deleteExpired,
                    connection -> executor.update(connection, statements.deleteExpired, -millis));
        }
        if (deleted > 0) {
            logger.debug("Deleted {} lock rows expired more than {} ago from {}", deleted, retention, table);
        }
        return deleted;
    }

    @Override
    public SlotClaim claimSlot(String job, String owner, Instant slot, boolean rerunUnfinished) {
        return slots.claim(job, owner, slot, rerunUnfinished);
    }

    @Override
    public void finishSlot(String job, Instant slot, long token, SlotRunOutcome outcome) {
        slots.finish(job, slot, token, outcome);
    }

    @Override
    public void verifySlots() {
        slots.verify();
    }

    @Override
    public List<SlotRun> recentSlotRuns(@Nullable String job, int limit) {
        return slots.recent(job, limit);
    }

    /**
     * Checks that the lock table, its columns and its token sequence exist, and that the columns have the types the
     * guarantees rest on (timestamps with their zone or in UTC, a case-sensitive {@code resource} that is the
     * primary key, a {@code bigint} token), as the dialect judges them.
     *
     * @throws LockTableMissingException when one is missing or a column's type is wrong, naming the table, the
     *     column, the type found and the type expected, and saying how to create them
     */
    @Override
    public void verifySchema() {
        LockSchema.verify(executor, dialect, table);
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

        private Duration maxTtl = LockArguments.DEFAULT_MAX_TTL;

        private Duration statementTimeout = DEFAULT_STATEMENT_TIMEOUT;

        private boolean durableRelease;
        private boolean notifyWaiters = true;

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
            this.maxTtl = LockArguments.withMaxTtl(maxTtl).maxTtl();
            return this;
        }

        /**
         * Sets how long each statement may run, waits for row locks included; default five seconds. A statement that
         * runs out of time is rolled back and fails with a {@link org.springframework.dao.QueryTimeoutException}
         * (an acquire answers "not acquired" instead). On PostgreSQL the statement is cancelled within 50 ms after
         * the timeout; on MariaDB it carries its own {@code max_statement_time}; on H2, whose statements can only
         * be kept from waiting for row locks, the session's lock timeout is shortened to it when longer.
         *
         * @param statementTimeout the bound, at least one second
         * @return this builder
         * @throws IllegalArgumentException when shorter than a second or longer than a day
         */
        public Builder statementTimeout(Duration statementTimeout) {
            this.statementTimeout = LockArguments.requireWholeMillis("statementTimeout", LockArguments.requireDuration(
                    "statementTimeout", statementTimeout, MIN_STATEMENT_TIMEOUT, MAX_STATEMENT_TIMEOUT));
            return this;
        }

        /**
         * Sets whether each release waits until its commit is durable; default {@code false}. On PostgreSQL a
         * release's transaction commits with {@code synchronous_commit} off by default, so that giving a lock back
         * does not wait for the WAL flush: a release lost in a crash of the database leaves the lock held by its old
         * owner until its TTL, never to another owner, and the next synchronous commit (any acquire) flushes it.
         * Acquisitions and renewals are always durable. Other databases have no such choice per statement, so
         * their releases are as durable as the database's own settings make every commit.
         *
         * @param durableRelease {@code true} to make releases wait for the flush like every other statement
         * @return this builder
         */
        public Builder durableRelease(boolean durableRelease) {
            this.durableRelease = durableRelease;
            return this;
        }

        /**
         * Sets whether, on PostgreSQL, a release that frees a lock notifies the waiters of other processes
         * ({@code pg_notify} in the release statement itself, {@code LISTEN} on one connection per
         * {@link io.distlock.core.LockManager} while its threads wait), so that they take the lock at once instead
         * of at their next poll; default {@code true}. Latency only: a notification that is lost leaves the waiter
         * to its next poll, and mutual exclusion never depends on one. Ignored on other databases, whose waiters
         * poll. Turn it off on every process, or the others still notify and listen.
         *
         * @param notifyWaiters whether to notify and listen
         * @return this builder
         */
        public Builder notifyWaiters(boolean notifyWaiters) {
            this.notifyWaiters = notifyWaiters;
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
