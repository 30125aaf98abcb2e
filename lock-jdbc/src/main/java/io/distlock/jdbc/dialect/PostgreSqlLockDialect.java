package io.distlock.jdbc.dialect;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.postgresql.util.PSQLWarning;

import org.springframework.util.ClassUtils;

/**
 * PostgreSQL 12 and later: {@code INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING}, atomic under READ COMMITTED,
 * on {@code timestamptz} columns with {@code clock_timestamp()}, which, unlike {@code now()}, is not frozen at the
 * start of a transaction.
 */
final class PostgreSqlLockDialect implements LockDialect {

    private static final Pattern TIMESTAMPTZ = Pattern.compile("timestamp(?:\\((\\d)\\))? with time zone");

    /** Where PostgreSQL waits for synchronous standbys, and warns when that wait is cancelled. */
    private static final String SYNC_REP_ROUTINE = "SyncRepWaitForLSN";

    private static final boolean PGJDBC = ClassUtils.isPresent("org.postgresql.util.PSQLWarning",
            PostgreSqlLockDialect.class.getClassLoader());

    private static final Pattern TEXT = Pattern.compile("(?:character varying(?:\\(\\d+\\))?|text)(?: UNIQUE)?");

    @Override
    public String name() {
        return "PostgreSQL";
    }

    @Override
    public String schemaLocation() {
        return "io/distlock/jdbc/dialect/schema-postgresql.sql";
    }

    @Override
    public String platform() {
        return "postgresql";
    }

    @Override
    public String fencingSchemaLocation() {
        return "io/distlock/jdbc/dialect/fencing-schema-postgresql.sql";
    }

    @Override
    public String currentTimeExpression() {
        return "clock_timestamp()";
    }

    @Override
    public String timeParameterExpression() {
        return "CAST(? AS timestamptz)";
    }

    @Override
    public String plusMillis(String timestamp, String millis) {
        return "(" + timestamp + " + CAST(" + millis + " AS bigint) * INTERVAL '1 millisecond')";
    }

    /**
     * {@code EXCLUDED} holds the times of the inserted row, read before any wait for the conflicting row's lock; on a
     * conflict, the times are read again under the lock, and {@code EXCLUDED} carries only the TTL (the difference of
     * its two times). {@code clock_timestamp()} moves between two calls, so each path reads it once, in a derived
     * table, and computes both of its times from that one reading: a new lease lasts exactly its TTL.
     */
    @Override
    public String acquire(String table, String sequence) {
        return """
                INSERT INTO %1$s AS l (resource, owner, token, acquired_at, expires_at)
                SELECT CAST(? AS varchar), CAST(? AS varchar), nextval('%2$s'), n.now, %3$s
                FROM (SELECT {now} AS now) n
                ON CONFLICT (resource) DO UPDATE SET
                    (token, acquired_at, owner, expires_at) = (SELECT
                        CASE WHEN l.owner = EXCLUDED.owner AND l.expires_at > {now}
                            THEN l.token ELSE nextval('%2$s') END,
                        CASE WHEN l.owner = EXCLUDED.owner AND l.expires_at > {now}
                            THEN l.acquired_at ELSE u.now END,
                        EXCLUDED.owner,
                        u.now + (EXCLUDED.expires_at - EXCLUDED.acquired_at)
                    FROM (SELECT {now-under-lock} AS now) u)
                WHERE l.owner = EXCLUDED.owner OR l.expires_at <= {now}
                RETURNING l.resource, l.owner, l.token, l.acquired_at, l.expires_at
                """.formatted(table, sequence, plusMillis("n.now", "?"));
    }

    /**
     * Under READ COMMITTED the conflicting row is locked and the {@code WHERE} is evaluated on its latest committed
     * version; a row comes back only when it was inserted or raised.
     */
    @Override
    public String fencingAdmit(String table) {
        return """
                INSERT INTO %s AS f (name, last_token) VALUES (?, ?)
                ON CONFLICT (name) DO UPDATE SET last_token = EXCLUDED.last_token
                WHERE f.last_token <= EXCLUDED.last_token
                RETURNING f.last_token
                """.formatted(table);
    }

    /**
     * {@code READ COMMITTED}, or {@code READ UNCOMMITTED}, which PostgreSQL runs as {@code READ COMMITTED}. At
     * {@code REPEATABLE READ} and {@code SERIALIZABLE} a statement that meets a row another transaction changed after
     * its snapshot fails with a serialization failure (40001), which contention makes frequent.
     */
    @Override
    public boolean keepsGuaranteesAt(int level) {
        return level == Connection.TRANSACTION_READ_COMMITTED || level == Connection.TRANSACTION_READ_UNCOMMITTED;
    }

    /**
     * {@code format_type}, followed by {@code COLLATE <name>} for a nondeterministic collation and {@code UNIQUE} for
     * a column that is a unique key on its own.
     */
    @Override
    public String columnTypesQuery() {
        return """
                SELECT a.attname, format_type(a.atttypid, a.atttypmod)
                    || CASE WHEN c.collisdeterministic = false THEN ' COLLATE ' || c.collname ELSE '' END
                    || CASE WHEN EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisunique
                            AND i.indnkeyatts = 1 AND i.indkey[0] = a.attnum) THEN ' UNIQUE' ELSE '' END
                FROM pg_attribute a LEFT JOIN pg_collation c ON c.oid = a.attcollation
                WHERE a.attrelid = CAST(COALESCE(CAST(? AS text) || '.', '') || CAST(? AS text) AS regclass)
                    AND a.attnum > 0 AND NOT a.attisdropped
                """;
    }

    @Override
    public @Nullable String expectedColumnType(String column, String found) {
        return switch (column) {
            case "acquired_at", "expires_at" -> ColumnTypes.precision(found, TIMESTAMPTZ) >= 3 ? null
                    : "timestamp with time zone (timestamptz) of at least millisecond precision";
            case "token" -> found.equals("bigint") ? null : "bigint";
            case "resource" -> TEXT.matcher(found).matches() && found.endsWith(" UNIQUE") ? null
                    : "character varying with a deterministic collation, unique on its own (the primary key)";
            case "owner" -> TEXT.matcher(found).matches() && !found.contains(" COLLATE ") ? null
                    : "character varying with a deterministic collation";
            default -> null;
        };
    }

    /**
     * {@code set_config(…, true)} sets {@code synchronous_commit} for the current transaction only: the statement's
     * own, in autocommit. The commit reads the setting before the transaction's settings are undone, so it returns
     * once its commit record is written to the WAL, not flushed; the WAL writer flushes it within three times
     * {@code wal_writer_delay} (200 ms by default), and any synchronous commit after it flushes it first.
     */
    @Override
    public String commitWithoutFlushCondition() {
        return "set_config('synchronous_commit', 'off', true) = 'off'";
    }

    @Override
    public String updateReturningRows(String update) {
        return update + " RETURNING " + COLUMNS;
    }

    /**
     * A join with {@code unnest} of the two arrays, on the primary key: one statement text for every batch size,
     * which pgjdbc prepares once, and two parameters instead of two per lease (a batch of 1,000 leases renews about
     * three times faster than with an {@code IN} list of pairs). The rows are locked first, passing over those another
     * session holds ({@code SKIP LOCKED}), so that one stuck row holds up neither the batch nor, through the row locks
     * the batch would keep while it waits, the releases of the other leases; liveness is checked again by the update.
     */
    @Override
    public String renewAllByArrays(String table) {
        return """
                WITH free AS (
                    SELECT l.resource FROM %1$s AS l
                    JOIN unnest(CAST(? AS text[]), CAST(? AS text[])) AS u(resource, owner)
                        ON l.resource = u.resource AND l.owner = u.owner
                    WHERE l.expires_at > {now}
                    FOR UPDATE OF l SKIP LOCKED)
                UPDATE %1$s AS l SET expires_at = %2$s
                FROM free WHERE l.resource = free.resource AND l.expires_at > {now}
                RETURNING l.resource, l.owner, l.token, l.acquired_at, l.expires_at
                """.formatted(table, plusMillis(NOW, "?"));
    }

    /**
     * {@code pg_notify(channel, resource)} in the release's own {@code RETURNING}, so no extra round trip, and only
     * when the new expiry is not later than now (a minimum hold still ahead frees nothing). PostgreSQL queues a
     * notification at commit and drops it on rollback: the autocommitted release tells of itself once it commits
     * (durably, or without waiting for the flush: see {@link #commitWithoutFlushCondition()}).
     */
    @Override
    public String notifyingRelease(String release, String channel) {
        return release + " RETURNING CASE WHEN expires_at <= " + NOW + " THEN pg_notify('" + channel
                + "', resource) END";
    }

    /** A cancelled statement (57014, at the statement timeout) or a lock not available in time (55P03). */
    @Override
    public boolean isTimeout(SQLException ex) {
        return LockDialect.super.isTimeout(ex) || "57014".equals(ex.getSQLState()) || "55P03".equals(ex.getSQLState());
    }

    @Override
    public String synchronousCommitQuery() {
        return "SELECT current_setting('synchronous_commit')";
    }

    /** For the session, until set back; only a plain word such as {@code remote_apply} is accepted as the level. */
    @Override
    public String synchronousCommitStatement(String level) {
        if (!level.matches("[a-z_]+")) {
            throw new IllegalArgumentException("Not a synchronous_commit level: '" + level + "'");
        }
        return "SET synchronous_commit = '" + level + "'";
    }

    /**
     * {@code pg_stat_replication} lists the standbys streaming from this server; without the privilege of
     * {@code pg_read_all_stats} their state reads as unknown.
     */
    @Override
    public String replicationQuery() {
        return """
                SELECT pg_is_in_recovery() AS in_recovery,
                    current_setting('synchronous_standby_names') AS synchronous_standby_names,
                    current_setting('synchronous_commit') AS synchronous_commit,
                    COALESCE((SELECT string_agg(COALESCE(NULLIF(application_name, ''), 'standby') || ' ('
                            || COALESCE(state, 'unknown') || ', ' || COALESCE(sync_state, 'unknown') || ')', ', '
                            ORDER BY application_name) FROM pg_stat_replication), '') AS standbys,
                    (SELECT count(*) FROM pg_stat_replication WHERE sync_state IN ('sync', 'quorum'))
                        AS synchronous_standbys
                """;
    }

    /**
     * PostgreSQL's WARNING "canceling wait for synchronous replication" (a cancel, such as the statement timeout's,
     * while the commit waited for a standby): the commit stays, on this server only. Recognised by the server's
     * routine ({@code SyncRepWaitForLSN}), which is not translated, where pgjdbc reports it; else by its English text.
     */
    @Override
    public boolean isUnreplicatedCommit(SQLWarning warning) {
        if (PGJDBC) {
            String routine = PgJdbcWarnings.routine(warning);
            if (routine != null) {
                return SYNC_REP_ROUTINE.equals(routine);
            }
        }
        String message = warning.getMessage();
        return message != null && message.contains("wait for synchronous replication");
    }

    @Override
    public int maxRenewBatch() {
        return 1000;
    }

    @Override
    public String checkSequence(String sequence) {
        return "SELECT last_value FROM " + sequence;
    }

    @Override
    public Instant readInstant(ResultSet rs, int column) throws SQLException {
        return rs.getObject(column, OffsetDateTime.class).toInstant();
    }

    @Override
    public Object instantParameter(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    /** Reads pgjdbc's warnings; loaded only when pgjdbc is on the class path. */
    private static final class PgJdbcWarnings {

        static @Nullable String routine(SQLWarning warning) {
            return warning instanceof PSQLWarning pg && pg.getServerErrorMessage() != null
                    ? pg.getServerErrorMessage().getRoutine() : null;
        }
    }
}
