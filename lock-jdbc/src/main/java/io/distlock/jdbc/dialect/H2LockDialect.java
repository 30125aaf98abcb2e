package io.distlock.jdbc.dialect;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * H2 2.x: {@code MERGE … USING} read through {@code FINAL TABLE}, on {@code TIMESTAMP WITH TIME ZONE} columns. On a
 * brand-new resource, concurrent merges can fail with a duplicate key; the repository retries once, which then takes
 * the matched path and answers "held". Neither H2's query timeout (set for the whole session) nor a cancel ends a
 * wait for a row lock, so the time bound comes from the session's {@code LOCK_TIMEOUT} (2 s by default), shortened for the lock
 * statements when it is longer than the statement timeout.
 */
final class H2LockDialect implements LockDialect {

    private static final Pattern TIMESTAMPTZ = Pattern.compile("TIMESTAMP WITH TIME ZONE\\((\\d)\\)");

    @Override
    public String name() {
        return "H2";
    }

    @Override
    public String schemaLocation() {
        return "io/distlock/jdbc/dialect/schema-h2.sql";
    }

    @Override
    public String platform() {
        return "h2";
    }

    @Override
    public String fencingSchemaLocation() {
        return "io/distlock/jdbc/dialect/fencing-schema-h2.sql";
    }

    @Override
    public String currentTimeExpression() {
        return "CURRENT_TIMESTAMP(6)";
    }

    @Override
    public String timeParameterExpression() {
        return "CAST(? AS TIMESTAMP(6) WITH TIME ZONE)";
    }

    @Override
    public String plusMillis(String timestamp, String millis) {
        return "DATEADD(MILLISECOND, CAST(" + millis + " AS BIGINT), " + timestamp + ")";
    }

    @Override
    public String acquire(String table, String sequence) {
        return """
                SELECT resource, owner, token, acquired_at, expires_at FROM FINAL TABLE (
                MERGE INTO %1$s l
                USING (VALUES (CAST(? AS VARCHAR(255)), CAST(? AS VARCHAR(255)), CAST(? AS BIGINT)))
                    AS s(resource, owner, ttl_ms)
                ON l.resource = s.resource
                WHEN MATCHED AND (l.owner = s.owner OR l.expires_at <= {now}) THEN UPDATE SET
                    token = CASE WHEN l.owner = s.owner AND l.expires_at > {now}
                            THEN l.token ELSE NEXT VALUE FOR %2$s END,
                    acquired_at = CASE WHEN l.owner = s.owner AND l.expires_at > {now}
                            THEN l.acquired_at ELSE {now} END,
                    owner = s.owner,
                    expires_at = %3$s
                WHEN NOT MATCHED THEN INSERT (resource, owner, token, acquired_at, expires_at)
                    VALUES (s.resource, s.owner, NEXT VALUE FOR %2$s, {now}, %3$s))
                """.formatted(table, sequence, plusMillis(NOW, "s.ttl_ms"));
    }

    /**
     * A waiting update re-evaluates its condition on the row it locked; a row comes back only when it was inserted or
     * raised. Two first writes of a brand-new name can collide on the primary key; H2 rolls back only the failed
     * statement, and the retry takes the matched path.
     */
    @Override
    public String fencingAdmit(String table) {
        return """
                SELECT last_token FROM FINAL TABLE (
                MERGE INTO %s f
                USING (VALUES (CAST(? AS VARCHAR(255)), CAST(? AS BIGINT))) AS s(name, token)
                ON f.name = s.name
                WHEN MATCHED AND f.last_token <= s.token THEN UPDATE SET last_token = s.token
                WHEN NOT MATCHED THEN INSERT (name, last_token) VALUES (s.name, s.token))
                """.formatted(table);
    }

    /**
     * {@code DATA_TYPE} with a timestamp's precision, followed by {@code UNIQUE} for a column that is a unique key on
     * its own. Unquoted names are upper case in H2's information schema.
     */
    @Override
    public String columnTypesQuery() {
        return """
                SELECT c.COLUMN_NAME, c.DATA_TYPE
                    || CASE WHEN c.DATA_TYPE LIKE 'TIMESTAMP%' THEN '(' || c.DATETIME_PRECISION || ')' ELSE '' END
                    || CASE WHEN EXISTS (SELECT 1 FROM INFORMATION_SCHEMA.INDEX_COLUMNS ic
                            JOIN INFORMATION_SCHEMA.INDEXES i ON i.INDEX_SCHEMA = ic.INDEX_SCHEMA
                                AND i.INDEX_NAME = ic.INDEX_NAME
                            WHERE ic.TABLE_SCHEMA = c.TABLE_SCHEMA AND ic.TABLE_NAME = c.TABLE_NAME
                            AND ic.COLUMN_NAME = c.COLUMN_NAME AND ic.ORDINAL_POSITION = 1
                            AND i.INDEX_TYPE_NAME IN ('PRIMARY KEY', 'UNIQUE INDEX')
                            AND NOT EXISTS (SELECT 1 FROM INFORMATION_SCHEMA.INDEX_COLUMNS o
                                WHERE o.INDEX_SCHEMA = ic.INDEX_SCHEMA AND o.INDEX_NAME = ic.INDEX_NAME
                                AND o.ORDINAL_POSITION = 2)) THEN ' UNIQUE' ELSE '' END
                FROM INFORMATION_SCHEMA.COLUMNS c
                WHERE c.TABLE_SCHEMA = COALESCE(UPPER(CAST(? AS VARCHAR)), CURRENT_SCHEMA)
                    AND c.TABLE_NAME = UPPER(CAST(? AS VARCHAR))
                """;
    }

    @Override
    public @Nullable String expectedColumnType(String column, String found) {
        return switch (column) {
            case "acquired_at", "expires_at" -> ColumnTypes.precision(found, TIMESTAMPTZ) >= 3 ? null
                    : "TIMESTAMP(6) WITH TIME ZONE (of at least millisecond precision)";
            case "token" -> found.equals("BIGINT") ? null : "BIGINT";
            case "resource" -> found.equals("CHARACTER VARYING UNIQUE") ? null
                    : "CHARACTER VARYING (VARCHAR, case-sensitive), unique on its own (the primary key)";
            case "owner" -> found.equals("CHARACTER VARYING") ? null : "CHARACTER VARYING (VARCHAR, case-sensitive)";
            default -> null;
        };
    }

    @Override
    public String updateReturningRows(String update) {
        return "SELECT " + COLUMNS + " FROM FINAL TABLE (" + update + ")";
    }

    /** A cancelled statement (57014) or a lock not available within the session's lock timeout (50200). */
    @Override
    public boolean isTimeout(SQLException ex) {
        return LockDialect.super.isTimeout(ex) || "57014".equals(ex.getSQLState()) || ex.getErrorCode() == 50200;
    }

    @Override
    public int maxRenewBatch() {
        return 1000;
    }

    @Override
    public boolean boundsByCancelling() {
        return false;
    }

    @Override
    public String lockWaitTimeoutQuery() {
        return "SELECT LOCK_TIMEOUT()";
    }

    @Override
    public String lockWaitTimeoutStatement(long millis) {
        return "SET LOCK_TIMEOUT " + millis;
    }

    @Override
    public String checkSequence(String sequence) {
        return "SELECT NEXT VALUE FOR " + sequence + " FROM DUAL WHERE 1 = 0";
    }

    @Override
    public Instant readInstant(ResultSet rs, int column) throws SQLException {
        return rs.getObject(column, OffsetDateTime.class).toInstant();
    }

    @Override
    public Object instantParameter(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
