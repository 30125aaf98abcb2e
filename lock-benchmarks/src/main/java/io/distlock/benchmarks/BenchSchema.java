package io.distlock.benchmarks;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.List;

import javax.sql.DataSource;

import io.distlock.jdbc.LockSchema;
import io.distlock.jdbc.LockTableName;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.testsupport.TestDatabase;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.support.EncodedResource;
import org.springframework.jdbc.datasource.init.ScriptUtils;

/**
 * The benchmark's own tables, one per implementation, so that no run touches an application's lock table:
 * {@value #DISTLOCK_TABLE} (distlock's shipped script, renamed), {@value #SHEDLOCK_TABLE} (ShedLock's documented
 * layout), {@value #SPRING_INTEGRATION_PREFIX}{@code LOCK} (Spring Integration's shipped layout) and
 * {@value #FLOOR_TABLE} (the raw-SQL floor: the same columns as distlock's table, less the token).
 */
public final class BenchSchema {

    /** distlock's table; its token sequence is {@code bench_locks_token_seq}. */
    public static final String DISTLOCK_TABLE = "bench_locks";

    /** ShedLock's table. */
    public static final String SHEDLOCK_TABLE = "bench_shedlock";

    /** Spring Integration's table prefix: the table is {@code BENCH_SI_LOCK}. */
    public static final String SPRING_INTEGRATION_PREFIX = "BENCH_SI_";

    /** The floor's table. */
    public static final String FLOOR_TABLE = "bench_floor";

    private BenchSchema() {
    }

    /**
     * Creates every table that is missing.
     *
     * @param db the database
     * @param dataSource a data source on it
     */
    public static void create(TestDatabase db, DataSource dataSource) {
        String distlock = LockSchema.script(db.dialect(), new LockTableName(DISTLOCK_TABLE)).strip();
        StringBuilder script = new StringBuilder(distlock).append(distlock.endsWith(";") ? "\n" : ";\n");
        String shedTime = switch (db) {
            case H2, MARIADB -> "TIMESTAMP(3)";
            case POSTGRESQL -> "TIMESTAMP";
        };
        String floorTime = switch (db) {
            case H2 -> "TIMESTAMP(6) WITH TIME ZONE";
            case POSTGRESQL -> "TIMESTAMPTZ(6)";
            case MARIADB -> "DATETIME(6)";
        };
        String siTime = db == TestDatabase.MARIADB ? "DATETIME(6)" : "TIMESTAMP";
        String engine = db == TestDatabase.MARIADB ? " ENGINE = InnoDB" : "";
        String binary = db == TestDatabase.MARIADB ? " DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_nopad_bin" : "";
        script.append("CREATE TABLE IF NOT EXISTS ").append(SHEDLOCK_TABLE).append(" (name VARCHAR(64) NOT NULL PRIMARY KEY, ")
                .append("lock_until ").append(shedTime).append(" NOT NULL, locked_at ").append(shedTime)
                .append(" NOT NULL, locked_by VARCHAR(255) NOT NULL)").append(engine).append(";\n");
        script.append("CREATE TABLE IF NOT EXISTS ").append(SPRING_INTEGRATION_PREFIX).append("LOCK (LOCK_KEY CHAR(36) NOT NULL, ")
                .append("REGION VARCHAR(100) NOT NULL, CLIENT_ID CHAR(36), CREATED_DATE ").append(siTime)
                .append(" NOT NULL, EXPIRED_AFTER ").append(siTime).append(" NOT NULL, ")
                .append("CONSTRAINT BENCH_SI_LOCK_PK PRIMARY KEY (LOCK_KEY, REGION))").append(engine).append(";\n");
        script.append("CREATE TABLE IF NOT EXISTS ").append(FLOOR_TABLE).append(" (resource VARCHAR(255) NOT NULL PRIMARY KEY, ")
                .append("owner VARCHAR(255) NOT NULL, expires_at ").append(floorTime).append(" NOT NULL)")
                .append(engine).append(binary).append(";\n");
        try (Connection connection = dataSource.getConnection()) {
            ScriptUtils.executeSqlScript(connection,
                    new EncodedResource(new ByteArrayResource(script.toString().getBytes(StandardCharsets.UTF_8))));
        }
        catch (SQLException ex) {
            throw new IllegalStateException("Cannot create the benchmark tables on " + db.id(), ex);
        }
    }

    /**
     * Empties every table, then gives the floor a free row for each resource, so that every trial starts from the
     * same state.
     *
     * @param db the database
     * @param dataSource a data source on it
     * @param floorResources the resources the floor will lock
     */
    public static void reset(TestDatabase db, DataSource dataSource, Collection<String> floorResources) {
        LockDialect dialect = db.dialect();
        List<String> tables = List.of(DISTLOCK_TABLE, SHEDLOCK_TABLE, SPRING_INTEGRATION_PREFIX + "LOCK", FLOOR_TABLE);
        try (Connection connection = dataSource.getConnection()) {
            try (Statement statement = connection.createStatement()) {
                for (String table : tables) {
                    statement.executeUpdate("DELETE FROM " + table);
                }
            }
            String insert = "INSERT INTO " + FLOOR_TABLE + " (resource, owner, expires_at) VALUES (?, '-', "
                    + dialect.plusMillis(dialect.currentTimeExpression(), "?") + ")";
            try (PreparedStatement statement = connection.prepareStatement(insert)) {
                for (String resource : floorResources) {
                    statement.setString(1, resource);
                    statement.setLong(2, -60_000);
                    statement.executeUpdate();
                }
            }
        }
        catch (SQLException ex) {
            throw new IllegalStateException("Cannot reset the benchmark tables on " + db.id(), ex);
        }
    }
}
