package io.distlock.jdbc.dialect;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * MariaDB 10.6 and later: {@code INSERT … ON DUPLICATE KEY UPDATE … RETURNING}, whose assignments run left to right
 * (each sees the new values of those before it), on {@code DATETIME(6)} columns holding UTC from
 * {@code UTC_TIMESTAMP(6)}. The row comes back whatever the decision; the returned owner tells whether the caller
 * holds it. MariaDB cannot return rows from an {@code UPDATE}, so renewals read the rows afterwards. Each statement
 * carries its own time bound, {@code SET STATEMENT max_statement_time = … FOR}, which also ends waits for row locks
 * (error 1969), without a round trip of its own.
 */
final class MariaDbLockDialect implements LockDialect {

    private static final String SET_STATEMENT = "SET STATEMENT ";

    private static final Pattern DATETIME = Pattern.compile("datetime(?:\\((\\d)\\))?");

    private static final Pattern BIGINT = Pattern.compile("bigint(?:\\(\\d+\\))?(?: unsigned)?");

    private static final Pattern BINARY_TEXT = Pattern.compile(
            "(?:varchar\\(\\d+\\) COLLATE \\w+_nopad_bin|varbinary\\(\\d+\\))(?: UNIQUE)?");

    @Override
    public String name() {
        return "MariaDB";
    }

    @Override
    public String schemaLocation() {
        return "io/distlock/jdbc/dialect/schema-mariadb.sql";
    }

    @Override
    public String platform() {
        return "mariadb";
    }

    /** The scripts were named for MySQL ({@code schema-mysql.sql}), a database the dialect refuses. */
    @Override
    public List<String> formerPlatforms() {
        return List.of("mysql");
    }

    @Override
    public String fencingSchemaLocation() {
        return "io/distlock/jdbc/dialect/fencing-schema-mariadb.sql";
    }

    @Override
    public String currentTimeExpression() {
        return "UTC_TIMESTAMP(6)";
    }

    @Override
    public String timeParameterExpression() {
        return "CAST(? AS DATETIME(6))";
    }

    @Override
    public String plusMillis(String timestamp, String millis) {
        return "(" + timestamp + " + INTERVAL (" + millis + " * 1000) MICROSECOND)";
    }

    /**
     * The assignment order is load-bearing: {@code token} and {@code acquired_at} are decided while
     * {@code expires_at} still holds the old value, {@code owner} next, and {@code expires_at} last, comparing with
     * the owner just assigned. Every decision compares with {@code UTC_TIMESTAMP(6)}, fixed at the statement's start,
     * so that all of them agree; the times written on a duplicate are read from {@code SYSDATE(6)} under the row lock,
     * in UTC by the statement's own time zone, and {@code VALUES} carries only the TTL. {@code SYSDATE(6)} moves
     * between two calls, so a takeover reads it once, for {@code acquired_at}, and its {@code expires_at} adds the
     * TTL to that: a new lease lasts exactly its TTL.
     */
    @Override
    public String acquire(String table, String sequence) {
        return """
                SET STATEMENT time_zone = '+00:00' FOR
                INSERT INTO %1$s (resource, owner, token, acquired_at, expires_at)
                VALUES (?, ?, NEXTVAL(%2$s), {now}, %3$s)
                ON DUPLICATE KEY UPDATE
                    token = IF(expires_at <= {now}, NEXTVAL(%2$s), token),
                    acquired_at = IF(expires_at <= {now}, {now-under-lock}, acquired_at),
                    owner = IF(expires_at <= {now} OR owner = VALUES(owner), VALUES(owner), owner),
                    expires_at = IF(owner = VALUES(owner), %4$s, expires_at)
                RETURNING resource, owner, token, acquired_at, expires_at
                """.formatted(table, sequence, plusMillis(NOW, "?"), "(IF(expires_at <= {now}, acquired_at, "
                        + "{now-under-lock}) + INTERVAL TIMESTAMPDIFF(MICROSECOND, VALUES(acquired_at), "
                        + "VALUES(expires_at)) MICROSECOND)");
    }

    /** {@code SYSDATE(6)}: the time it is evaluated at, in the time zone that {@link #acquire} sets to UTC. */
    @Override
    public String currentTimeUnderLockExpression() {
        return "SYSDATE(6)";
    }

    /**
     * The duplicate row is locked and read in its latest version, and the returned token is the row's final state.
     * The affected-row count is not used, because Connector/J reports found rows by default.
     */
    @Override
    public String fencingAdmit(String table) {
        return """
                INSERT INTO %s (name, last_token) VALUES (?, ?)
                ON DUPLICATE KEY UPDATE
                    last_token = IF(last_token <= VALUES(last_token), VALUES(last_token), last_token)
                RETURNING last_token
                """.formatted(table);
    }

    /**
     * {@code READ COMMITTED}, {@code REPEATABLE READ} (MariaDB's default) and {@code SERIALIZABLE}: in autocommit,
     * InnoDB runs every locking statement on the latest committed row versions whatever the level, and a plain
     * {@code SELECT} as a consistent read of its own; one-lease statements find their row by primary key, so they lock
     * no other row. Leaving the level alone saves two round trips per statement on default pools.
     */
    @Override
    public boolean keepsGuaranteesAt(int level) {
        return level == Connection.TRANSACTION_READ_COMMITTED || level == Connection.TRANSACTION_REPEATABLE_READ
                || level == Connection.TRANSACTION_SERIALIZABLE;
    }

    /**
     * {@code COLUMN_TYPE}, followed by {@code COLLATE <name>} for a character column and {@code UNIQUE} for a column
     * that is a unique key on its own.
     */
    @Override
    public String columnTypesQuery() {
        return """
                SELECT c.COLUMN_NAME, CONCAT(c.COLUMN_TYPE,
                    IF(c.COLLATION_NAME IS NULL, '', CONCAT(' COLLATE ', c.COLLATION_NAME)),
                    IF(EXISTS (SELECT 1 FROM information_schema.STATISTICS s
                            WHERE s.TABLE_SCHEMA = c.TABLE_SCHEMA AND s.TABLE_NAME = c.TABLE_NAME AND s.NON_UNIQUE = 0
                            AND s.COLUMN_NAME = c.COLUMN_NAME AND s.SEQ_IN_INDEX = 1
                            AND NOT EXISTS (SELECT 1 FROM information_schema.STATISTICS o
                                WHERE o.TABLE_SCHEMA = s.TABLE_SCHEMA AND o.TABLE_NAME = s.TABLE_NAME
                                AND o.INDEX_NAME = s.INDEX_NAME AND o.SEQ_IN_INDEX = 2)), ' UNIQUE', ''))
                FROM information_schema.COLUMNS c
                WHERE c.TABLE_SCHEMA = COALESCE(?, DATABASE()) AND c.TABLE_NAME = ?
                """;
    }

    /**
     * {@code DATETIME} of at least millisecond precision holding UTC ({@code TIMESTAMP} converts through the session's
     * time zone), and for {@code resource} and {@code owner} a binary no-pad collation, so that {@code 'job'},
     * {@code 'Job'} and {@code 'job '} are different names and owners.
     */
    @Override
    public @Nullable String expectedColumnType(String column, String found) {
        return switch (column) {
            case "acquired_at", "expires_at" -> ColumnTypes.precision(found, DATETIME) >= 3 ? null
                    : "datetime(6) (DATETIME of at least millisecond precision, holding UTC)";
            case "token" -> BIGINT.matcher(found).matches() ? null : "bigint";
            case "resource" -> BINARY_TEXT.matcher(found).matches() && found.endsWith(" UNIQUE") ? null
                    : "varchar(255) COLLATE utf8mb4_nopad_bin (a binary no-pad collation), unique on its own (the "
                            + "primary key)";
            case "owner" -> BINARY_TEXT.matcher(found).matches() && !found.endsWith(" UNIQUE") ? null
                    : "varchar(255) COLLATE utf8mb4_nopad_bin (a binary no-pad collation)";
            default -> null;
        };
    }

    @Override
    public String updateReturningRows(String update) {
        return null;
    }

    /**
     * Prefixes {@code SET STATEMENT max_statement_time = <seconds> FOR}, in milliseconds' precision, merging with a
     * {@code SET STATEMENT} the statement already has.
     */
    @Override
    public String boundStatement(String sql, Duration timeout) {
        String seconds = BigDecimal.valueOf(timeout.toMillis(), 3).stripTrailingZeros().toPlainString();
        String bound = "max_statement_time = " + seconds;
        return sql.startsWith(SET_STATEMENT) ? SET_STATEMENT + bound + ", " + sql.substring(SET_STATEMENT.length())
                : SET_STATEMENT + bound + " FOR " + sql;
    }

    /** Bounded in the statement's text instead. */
    @Override
    public boolean boundsByCancelling() {
        return false;
    }

    /**
     * {@code innodb_lock_wait_timeout = 0} for the statement alone: its {@code UPDATE} waits for a locked row even when
     * a {@code SKIP LOCKED} subquery passed over it, so a batch that meets one fails at once (1205) instead.
     */
    @Override
    public String failingOnLockedRows(String update) {
        return SET_STATEMENT + "innodb_lock_wait_timeout = 0 FOR " + update;
    }

    @Override
    public boolean isLockedRow(SQLException ex) {
        return ex.getErrorCode() == 1205;
    }

    /**
     * A lock wait that ran out ({@code innodb_lock_wait_timeout}, 1205) or a statement interrupted at its
     * {@code max_statement_time} (1969, SQL state 70100).
     */
    @Override
    public boolean isTimeout(SQLException ex) {
        return LockDialect.super.isTimeout(ex) || ex.getErrorCode() == 1205 || ex.getErrorCode() == 1969
                || "70100".equals(ex.getSQLState());
    }

    @Override
    public int maxRenewBatch() {
        return 1000;
    }

    @Override
    public String checkSequence(String sequence) {
        return "SELECT NEXT_NOT_CACHED_VALUE FROM " + sequence;
    }

    @Override
    public Instant readInstant(ResultSet rs, int column) throws SQLException {
        return rs.getObject(column, LocalDateTime.class).toInstant(ZoneOffset.UTC);
    }

    @Override
    public Object instantParameter(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
