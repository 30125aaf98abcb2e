package io.distlock.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

import io.distlock.core.LeaseKey;
import io.distlock.core.LockRecord;
import io.distlock.core.TimeSource;
import io.distlock.jdbc.dialect.LockDialect;
import org.jspecify.annotations.Nullable;

/**
 * Every statement of the lock table, written once per repository for its table, dialect and time source. Each
 * decision's {@code WHERE} carries its whole condition: live ({@code expires_at > now}), and owned where ownership
 * matters. {@code {now}} is the dialect's clock, or a parameter in application-time mode. Each text carries the
 * dialect's time bound, where the dialect bounds statements in their text.
 */
final class LockStatements {

    private static final String NOW = LockDialect.NOW;

    private static final String COLUMNS = LockDialect.COLUMNS;

    private final LockDialect dialect;

    private final LockTableName table;

    private final TimeSource timeSource;

    private final UnaryOperator<String> bound;

    /** Takes a free or expired lock, or renews the caller's own; parameters resource, owner, TTL ms. */
    final TimedStatement acquire;

    /** Extends a live owned lease; parameters TTL ms, resource, owner. A query when {@link #renewReturnsRow}. */
    final TimedStatement renew;

    /** Whether {@link #renew} and the batch renewals return the changed rows. */
    final boolean renewReturnsRow;

    /** Expires a live owned lease at the later of now and acquisition plus minimum hold; parameters hold ms,
     *  resource, owner. Commits without waiting for its flush where the dialect can, unless durable. A query when
     *  {@link #releaseNotifies}. */
    final TimedStatement release;

    /** Expires a live owned lease at once, committing without waiting for its flush or a standby where the dialect
     *  can: gives back an acquisition that must not be handed out. Parameters resource, owner. */
    final TimedStatement giveBack;

    /** Whether {@link #release} also notifies the channel when it frees the lock, and returns a row per release. */
    final boolean releaseNotifies;

    /** Expires a live lock of a given token at once, whoever holds it, and blanks its owner, which no caller can
     *  present (owners are never blank), so that the next holder, the old owner included, draws a new token;
     *  parameters resource, token. Durable. A query when {@link #releaseNotifies}. */
    final TimedStatement forceRelease;

    /** The token of a resource's live lock: tells the refusals of a forced release apart. */
    final TimedStatement liveToken;

    /** Renews every lease of a batch, bound as two arrays; parameters resources, owners, TTL ms. Passes over rows
     *  another session holds locked. Where the dialect has it. */
    final @Nullable TimedStatement renewAllByArrays;

    /** The live lock of a resource. */
    final TimedStatement find;

    /** The row of a resource and owner, live or not: read after an update that cannot return rows. */
    final TimedStatement findOwned;

    /** Every live lock. */
    final TimedStatement findAll;

    /** The owner of a resource's live lock: tells refusals apart. */
    final TimedStatement liveOwner;

    /** Deletes rows expired before now plus a (negative) number of milliseconds. */
    final TimedStatement deleteExpired;

    /** Deletes as {@link #deleteExpired}, keeping the rows of scheduled jobs, which carry their last claimed slot. */
    final TimedStatement deleteExpiredKeepingJobs;

    private final Map<Integer, TimedStatement> renewAllBySize = new ConcurrentHashMap<>();

    private final Map<Integer, TimedStatement> findAllOwnedBySize = new ConcurrentHashMap<>();

    private final Map<Integer, TimedStatement> lockFreeBySize = new ConcurrentHashMap<>();

    private final Map<Integer, TimedStatement> renewAllFailingBySize = new ConcurrentHashMap<>();

    /** Whether the dialect has a batch renewal that fails at once on a locked row. */
    private final boolean failsOnLockedRows;

    LockStatements(LockDialect dialect, LockTableName table, TimeSource timeSource, UnaryOperator<String> bound,
            boolean durableRelease, @Nullable String channel) {
        this.dialect = dialect;
        this.table = table;
        this.timeSource = timeSource;
        this.bound = bound;
        this.acquire = compile(dialect.acquire(table.value(), table.sequence()));
        String renewUpdate = "UPDATE %s SET expires_at = %s WHERE resource = ? AND owner = ? AND expires_at > %s"
                .formatted(table, dialect.plusMillis(NOW, "?"), NOW);
        String renewQuery = dialect.updateReturningRows(renewUpdate);
        this.renewReturnsRow = renewQuery != null;
        this.renew = compile(renewQuery != null ? renewQuery : renewUpdate);
        String release = """
                UPDATE %s SET expires_at = GREATEST(%s, %s)
                WHERE resource = ? AND owner = ? AND expires_at > %s"""
                .formatted(table, NOW, dialect.plusMillis("acquired_at", "?"), NOW) + unflushed(durableRelease);
        this.giveBack = compile("UPDATE %s SET expires_at = %s WHERE resource = ? AND owner = ? AND expires_at > %s"
                .formatted(table, NOW, NOW) + unflushed(false));
        String notifying = channel != null ? dialect.notifyingRelease(release, channel) : null;
        this.releaseNotifies = notifying != null;
        this.release = compile(notifying != null ? notifying : release);
        String forced = "UPDATE %s SET expires_at = %s, owner = '' WHERE resource = ? AND token = ? AND expires_at > %s"
                .formatted(table, NOW, NOW);
        String notifyingForced = channel != null ? dialect.notifyingRelease(forced, channel) : null;
        this.forceRelease = compile(notifyingForced != null ? notifyingForced : forced);
        String byArrays = dialect.renewAllByArrays(table.value());
        this.renewAllByArrays = byArrays != null ? compile(byArrays) : null;
        this.failsOnLockedRows = dialect.failingOnLockedRows("UPDATE") != null;
        this.find = compile("SELECT %s FROM %s WHERE resource = ? AND expires_at > %s".formatted(COLUMNS, table, NOW));
        this.findOwned = compile("SELECT %s FROM %s WHERE resource = ? AND owner = ?".formatted(COLUMNS, table));
        this.findAll = compile("SELECT %s FROM %s WHERE expires_at > %s ORDER BY resource"
                .formatted(COLUMNS, table, NOW));
        this.liveOwner = compile("SELECT owner FROM %s WHERE resource = ? AND expires_at > %s".formatted(table, NOW));
        this.liveToken = compile("SELECT token FROM %s WHERE resource = ? AND expires_at > %s".formatted(table, NOW));
        this.deleteExpired = compile("DELETE FROM %s WHERE expires_at < %s"
                .formatted(table, dialect.plusMillis(NOW, "?")));
        this.deleteExpiredKeepingJobs = compile("DELETE FROM %s WHERE expires_at < %s AND slot_at IS NULL"
                .formatted(table, dialect.plusMillis(NOW, "?")));
    }

    /**
     * Reads a lock row, as every statement returning rows returns it ({@link LockDialect#COLUMNS}).
     */
    LockRecord record(ResultSet rs) throws SQLException {
        return new LockRecord(rs.getString(1), rs.getString(2), rs.getLong(3), dialect.readInstant(rs, 4),
                dialect.readInstant(rs, 5));
    }

    /**
     * Renews {@code size} live owned leases; parameters TTL ms, then resource and owner of each
     * ({@link #renewAllArguments}). Waits for a row another session holds locked: run it on rows {@link #lockFree}
     * locked first.
     */
    TimedStatement renewAll(int size) {
        return renewAllBySize.computeIfAbsent(size, n -> compile(renewAllText(n)));
    }

    /**
     * As {@link #renewAll(int)}, failing at once on a row another session holds locked, where the dialect can
     * ({@link LockDialect#failingOnLockedRows}).
     *
     * @return the statement, or {@code null} when the dialect cannot
     */
    @Nullable TimedStatement renewAllFailingOnLockedRows(int size) {
        if (!failsOnLockedRows) {
            return null;
        }
        return renewAllFailingBySize.computeIfAbsent(size,
                n -> compile(Objects.requireNonNull(dialect.failingOnLockedRows(renewAllText(n)))));
    }

    private String renewAllText(int size) {
        String update = "UPDATE %s SET expires_at = %s WHERE %s AND expires_at > %s"
                .formatted(table, dialect.plusMillis(NOW, "?"), keyCondition(size), NOW);
        String query = dialect.updateReturningRows(update);
        return query != null ? query : update;
    }

    /**
     * Locks the live rows of {@code size} resource and owner pairs, passing over those another session holds locked;
     * answers their resource and owner. Parameters: resource and owner of each ({@link #pairs}).
     */
    TimedStatement lockFree(int size) {
        return lockFreeBySize.computeIfAbsent(size, n -> compile(
                "SELECT resource, owner FROM %s WHERE %s AND expires_at > %s FOR UPDATE SKIP LOCKED"
                        .formatted(table, keyCondition(n), NOW)));
    }

    /**
     * The arguments of {@link #renewAll(int)}: the TTL, then resource and owner of each lease.
     */
    static Object[] renewAllArguments(long ttlMillis, List<LeaseKey> keys) {
        Object[] args = new Object[1 + keys.size() * 2];
        args[0] = ttlMillis;
        System.arraycopy(pairs(keys), 0, args, 1, keys.size() * 2);
        return args;
    }

    /**
     * The arguments of {@link #findAllOwned(int)}: resource and owner of each lease.
     */
    static Object[] pairs(List<LeaseKey> keys) {
        Object[] args = new Object[keys.size() * 2];
        for (int i = 0; i < keys.size(); i++) {
            args[2 * i] = keys.get(i).resource();
            args[2 * i + 1] = keys.get(i).owner();
        }
        return args;
    }

    /**
     * The live rows of {@code size} resource and owner pairs: read after a batch renewal that cannot return rows.
     */
    TimedStatement findAllOwned(int size) {
        return findAllOwnedBySize.computeIfAbsent(size, n -> compile(
                "SELECT %s FROM %s WHERE %s AND expires_at > %s"
                        .formatted(COLUMNS, table, keyCondition(n), NOW)));
    }

    /**
     * The release's commit may skip the wait for its flush where the dialect can say so: losing it in a crash leaves
     * the lock held by its owner until its TTL, as a holder that died before releasing does.
     */
    private String unflushed(boolean durableRelease) {
        @Nullable String condition = durableRelease ? null : dialect.commitWithoutFlushCondition();
        return condition != null ? " AND " + condition : "";
    }

    private TimedStatement compile(String template) {
        return TimedStatement.compile(bound.apply(template), dialect, timeSource);
    }

    /**
     * Matches {@code count} resource and owner pairs. One pair is written as two equalities: MariaDB scans the whole
     * table for a row-value {@code IN} of a single pair, and so waits for every row another session holds locked.
     */
    private static String keyCondition(int count) {
        if (count == 1) {
            return "resource = ? AND owner = ?";
        }
        StringBuilder sql = new StringBuilder(count * 8 + 24).append("(resource, owner) IN (");
        for (int i = 0; i < count; i++) {
            sql.append(i == 0 ? "(?, ?)" : ", (?, ?)");
        }
        return sql.append(')').toString();
    }
}
