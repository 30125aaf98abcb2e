package io.distlock.jdbc;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
 *
 * <p>One concept, hence its length: the JDBC store as its users see it — each operation and capability with its
 * documented behaviour, the settings they depend on, and the builder. The work is done by the classes it wires:
 * {@link LockOperations} (the lock operations), {@link JdbcBatchRenewal}, {@link JdbcSlotStore} (its
 * {@link SlotStore}), {@link SharedReleaseFeed}, {@link RenewalConnection} and {@link LockSchema}.
 */
public final class JdbcLockRepository implements LockRepository, BatchRenewal, ForcedRelease, SlotStore, ReleaseFeeds,
        RenewalCapacity, SchemaVerification {

    private static final Logger logger = LoggerFactory.getLogger(JdbcLockRepository.class);

    /** Shortest retention of expired rows ({@link LockArguments#MIN_RETENTION}). */
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

    private final LockOperations operations;

    private final JdbcBatchRenewal batchRenewal;

    private final JdbcSlotStore slots;

    private final RenewalConnection renewals;

    private final ReplicationCheck replication;

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
        this.executor = new StatementExecutor(builder.dataSource, table, builder.clock, dialect, statementTimeout,
                builder.replication);
        this.replication = new ReplicationCheck(executor, dialect, table, builder.replication,
                builder.requireSynchronousStandby);
        String notifyOn = builder.notifyWaiters ? table.notificationChannel() : null;
        LockStatements statements = new LockStatements(dialect, table, builder.timeSource, executor::bound,
                builder.durableRelease, notifyOn);
        this.channel = statements.releaseNotifies ? notifyOn : null;
        this.releaseFeed = new SharedReleaseFeed(heard -> new PostgreSqlReleaseFeed(executor, channel,
                table.value(), heard, PostgreSqlReleaseFeed.DEFAULT_LINGER));
        this.renewals = new RenewalConnection(executor);
        this.slots = new JdbcSlotStore(executor, dialect, table, builder.timeSource);
        this.operations = new LockOperations(executor, statements, slots, table);
        this.batchRenewal = new JdbcBatchRenewal(executor, statements, dialect, renewals);
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

    /** @return the dialect in use, detected or configured */
    public LockDialect dialect() {
        return dialect;
    }

    /** @return the lock table in use */
    public LockTableName table() {
        return table;
    }

    /** @return the bound of each statement ({@link Builder#statementTimeout}) */
    public Duration statementTimeout() {
        return statementTimeout;
    }

    /**
     * How long a lock connection waits for its server at most, for a statement timeout: against a server that answers
     * nothing — a frozen process, a network path that swallows packets while TCP stays open — neither the statement's
     * bound nor its cancel is answered, and this ends the statement by breaking its connection (set with
     * {@link java.sql.Connection#setNetworkTimeout} on every connection the repository takes, and set back when it is
     * given back; drivers without network timeouts, such as H2's, keep no such bound). An operation then ends within
     * the wait for a connection (at most the statement timeout) plus this.
     *
     * @param statementTimeout the statement timeout
     * @return one and a half times the statement timeout, and at least 500 ms longer than it
     */
    public static Duration networkTimeout(Duration statementTimeout) {
        return NetworkTimeout.after(statementTimeout);
    }

    /**
     * @return whether each release waits until its commit is durable ({@link Builder#durableRelease}): {@code false}
     *     when a release on PostgreSQL commits without waiting for the WAL flush
     */
    public boolean durableRelease() {
        return durableRelease;
    }

    /** @return whether acquisitions and renewals wait for a standby ({@link Builder#replication}) */
    public JdbcReplication replication() {
        return replication.mode();
    }

    /**
     * Asks the server what its replication is, as the lock statements' sessions see it: for health details.
     *
     * @return what the server said; on databases other than PostgreSQL, only the mode and the database
     */
    public ReplicationStatus replicationStatus() {
        return replication.read();
    }

    /**
     * @return whether releases that free a lock notify waiters, and waiters listen: {@link Builder#notifyWaiters} on
     *     a database that can (PostgreSQL)
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
     * acquire that took at least its TTL is checked once more before its lease is handed out. An acquisition whose
     * commit stopped waiting for a synchronous standby before the standby had it (on PostgreSQL, the statement
     * timeout cancelled the wait, and the server committed locally) is not handed out either: "not acquired", and its
     * row given back at once.
     */
    @Override
    public Optional<LockRecord> acquire(String resource, String owner, Duration ttl) {
        return operations.acquire(resource, owner, arguments.lease(resource, owner, ttl));
    }

    /**
     * {@inheritDoc}
     *
     * <p>A renewal whose commit stopped waiting for a synchronous standby before the standby had it fails with a
     * {@link org.springframework.dao.TransientDataAccessResourceException}: not renewed, so the lease keeps the expiry
     * the standby has, and the watchdog tries again until it runs out. Batch renewals alike.
     */
    @Override
    public RenewResult renew(String resource, String owner, Duration ttl) {
        return operations.renew(resource, owner, arguments.lease(resource, owner, ttl));
    }

    @Override
    public Map<LeaseKey, LockRecord> renewAll(Collection<LeaseKey> leases, Duration ttl) {
        return batchRenewal.renewAll(leases, arguments.leases(leases, ttl));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Reserving takes a connection at once and keeps it out of the pool for every renewal while the reservation
     * lasts, so that the watchdog keeps leases alive even while the guarded work holds every other connection: size
     * the pool for the guarded work's connections + 1. A reserved connection that fails is closed and replaced by the
     * next renewal, or before the guarded work of the next lease to be kept alive. When renewal cannot get a
     * connection, that is told at WARN, naming the data source.
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
        return operations.release(resource, owner, arguments.release(resource, owner, minHold));
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
        return operations.forceRelease(LockArguments.requireResource(resource), token);
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

    @Override
    public Optional<LockRecord> find(String resource) {
        return operations.find(LockArguments.requireResource(resource));
    }

    @Override
    public List<LockRecord> findAll() {
        return operations.findAll();
    }

    /**
     * {@inheritDoc}
     *
     * <p>Rows of scheduled jobs stay: they carry the job's last claimed slot. Whether the table has the slot columns
     * (a table made by distlock 0.1 has not) is asked once, by the first clean-up.
     */
    @Override
    public int deleteExpired(Duration retention) {
        return operations.deleteExpired(LockArguments.retention(retention));
    }

    @Override
    public LockArguments arguments() {
        return arguments;
    }

    /**
     * {@inheritDoc}
     *
     * <p>The job's lock row carries its last claimed slot; the slot table keeps the history of its runs.
     */
    @Override
    public SlotClaim claimSlot(String job, String owner, Instant slot, boolean rerunUnfinished) {
        return slots.claimSlot(job, owner, slot, rerunUnfinished);
    }

    @Override
    public void finishSlot(String job, Instant slot, long token, SlotRunOutcome outcome) {
        slots.finishSlot(job, slot, token, outcome);
    }

    @Override
    public void verifySlots() {
        slots.verifySlots();
    }

    @Override
    public List<SlotRun> recentSlotRuns(@Nullable String job, int limit) {
        return slots.recentSlotRuns(job, limit);
    }

    /**
     * Checks that the lock table, its columns and its token sequence exist, and that the columns have the types the
     * guarantees rest on (timestamps with their zone or in UTC, a case-sensitive {@code resource} that is the
     * primary key, a {@code bigint} token), as the dialect judges them.
     *
     * <p>Then reads the server's replication ({@link #replicationStatus()}) and tells it in one line, at INFO, or at
     * WARN for asynchronous standbys (a failover can lose acquisitions) and for a {@link Builder#replication} the
     * server cannot honour; told again whenever it changes.
     *
     * @throws LockTableMissingException when one is missing or a column's type is wrong, naming the table, the
     *     column, the type found and the type expected, and saying how to create them
     * @throws LockReplicationException when the server is a standby, or, with
     *     {@link Builder#requireSynchronousStandby}, when acquisitions would not wait for a synchronous standby
     */
    @Override
    public void verifySchema() {
        LockSchema.verify(executor, dialect, table);
        replication.verify();
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

        private JdbcReplication replication = JdbcReplication.ASYNC;

        private boolean requireSynchronousStandby;

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
         * Sets the longest lease accepted; default one day ({@link LockArguments#DEFAULT_MAX_TTL}). Longer TTLs are
         * rejected as a likely unit mistake.
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
         * Sets whether the commits of acquisitions and renewals wait for a standby, so that a failover keeps them;
         * default {@link JdbcReplication#ASYNC}, the server's own setting. On PostgreSQL, the lock statements'
         * sessions only get {@code synchronous_commit} {@code on} or {@code remote_apply} (set back afterwards), which
         * waits only for the standbys the server names in {@code synchronous_standby_names}; releases still commit
         * without waiting (see {@link #durableRelease}). An acquisition whose wait for the standby ends before the
         * standby confirmed it (the statement timeout) answers "not acquired". Other databases cannot: asking them
         * is told at start-up ({@link JdbcLockRepository#verifySchema}), at WARN, or as an error with
         * {@link #requireSynchronousStandby}.
         *
         * @param replication the mode
         * @return this builder
         */
        public Builder replication(JdbcReplication replication) {
            this.replication = Objects.requireNonNull(replication, "replication");
            return this;
        }

        /**
         * Sets whether the start-up check ({@link JdbcLockRepository#verifySchema}) fails unless acquisitions wait
         * for a synchronous standby; default {@code false}, which tells what is missing at WARN instead.
         *
         * @param require whether a synchronous standby is required
         * @return this builder
         */
        public Builder requireSynchronousStandby(boolean require) {
            this.requireSynchronousStandby = require;
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
