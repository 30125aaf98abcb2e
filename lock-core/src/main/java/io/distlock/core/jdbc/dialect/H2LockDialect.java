package io.distlock.core.jdbc.dialect;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * H2 2.x: {@code MERGE … USING} read through {@code FINAL TABLE}, on {@code TIMESTAMP WITH TIME ZONE} columns. On a
 * brand-new resource, concurrent merges can fail with a duplicate key; the repository retries once, which then takes
 * the matched path and answers "held". H2's query timeout applies to the whole session and does not end a wait for a
 * row lock, so the time bound comes from the session's {@code LOCK_TIMEOUT} (2 s by default), shortened for the lock
 * statements when it is longer than the statement timeout.
 */
final class H2LockDialect implements LockDialect {

    @Override
    public String name() {
        return "H2";
    }

    @Override
    public String schemaLocation() {
        return "io/distlock/core/jdbc/dialect/schema-h2.sql";
    }

    @Override
    public String platform() {
        return "h2";
    }

    @Override
    public String fencingSchemaLocation() {
        return "io/distlock/core/jdbc/dialect/fencing-schema-h2.sql";
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

    @Override
    public String updateReturningRows(String update) {
        return "SELECT " + COLUMNS + " FROM FINAL TABLE (" + update + ")";
    }

    @Override
    public int maxRenewBatch() {
        return 500;
    }

    @Override
    public boolean usesQueryTimeout() {
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
