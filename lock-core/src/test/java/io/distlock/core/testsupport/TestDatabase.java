package io.distlock.core.testsupport;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.distlock.core.jdbc.LockSchema;
import io.distlock.core.jdbc.LockTableName;
import io.distlock.core.jdbc.dialect.LockDialect;
import io.distlock.core.jdbc.dialect.LockDialects;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import org.springframework.jdbc.datasource.init.ScriptUtils;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.support.EncodedResource;

/**
 * The real databases the tests run on: embedded H2, and the PostgreSQL and MariaDB servers named by
 * {@code DISTLOCK_TEST_POSTGRESQL_URL} and {@code DISTLOCK_TEST_MARIADB_URL}. A server that cannot be reached skips
 * its tests with a notice, unless {@code DISTLOCK_TEST_REQUIRE} names it ({@code postgresql,mariadb}): then its tests
 * fail, so that CI never passes by skipping them.
 */
public enum TestDatabase {

    /** In-memory H2, always available. */
    H2("h2", "jdbc:h2:mem:distlock-tests;DB_CLOSE_DELAY=-1", "sa", ""),

    /** The local PostgreSQL server. */
    POSTGRESQL("postgresql", env("DISTLOCK_TEST_POSTGRESQL_URL", "jdbc:postgresql://127.0.0.1:5432/test"),
            env("DISTLOCK_TEST_POSTGRESQL_USER", "postgres"), env("DISTLOCK_TEST_POSTGRESQL_PASSWORD", "")),

    /** The local MariaDB server. */
    MARIADB("mariadb", env("DISTLOCK_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test"),
            env("DISTLOCK_TEST_MARIADB_USER", "root"), env("DISTLOCK_TEST_MARIADB_PASSWORD", ""));

    private static final int POOL_SIZE = 70;

    private static final Map<TestDatabase, HikariDataSource> POOLS = new ConcurrentHashMap<>();

    private static final Map<TestDatabase, String> UNREACHABLE = new ConcurrentHashMap<>();

    private final String id;

    private final String url;

    private final String user;

    private final String password;

    TestDatabase(String id, String url, String user, String password) {
        this.id = id;
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /** @return the dialect name: {@code h2}, {@code postgresql} or {@code mariadb} */
    public String id() {
        return id;
    }

    /** @return the JDBC URL */
    public String url() {
        return url;
    }

    /** @return the user name */
    public String user() {
        return user;
    }

    /** @return the password */
    public String password() {
        return password;
    }

    /** @return the dialect of this database */
    public LockDialect dialect() {
        return LockDialects.byName(id);
    }

    /**
     * Whether {@code DISTLOCK_TEST_REQUIRE} demands this database.
     *
     * @return {@code true} when an unreachable server must fail the tests
     */
    public boolean required() {
        String require = System.getenv("DISTLOCK_TEST_REQUIRE");
        if (require == null) {
            return false;
        }
        Set<String> names = Arrays.stream(require.split(",")).map(s -> s.strip().toLowerCase(Locale.ROOT))
                .collect(Collectors.toSet());
        return names.contains(id) || names.contains("all");
    }

    /**
     * Aborts the calling test with a notice when the server cannot be reached, or fails it when the database is
     * {@linkplain #required() required}.
     */
    public void assumeAvailable() {
        if (this == H2) {
            return;
        }
        String problem = UNREACHABLE.computeIfAbsent(this, TestDatabase::probe);
        if (problem.isEmpty()) {
            return;
        }
        String message = name() + " at " + url + " is unreachable (" + problem + ")";
        if (required()) {
            Assertions.fail(message + " but DISTLOCK_TEST_REQUIRE demands it");
        }
        System.err.println("NOTICE: " + message + ": its tests are skipped");
        Assumptions.abort(message + ": skipped");
    }

    /**
     * A shared connection pool on this database, large enough for the race tests.
     *
     * @return the pooled data source
     */
    public DataSource dataSource() {
        assumeAvailable();
        return POOLS.computeIfAbsent(this, db -> {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(db.url);
            config.setUsername(db.user);
            config.setPassword(db.password);
            config.setMaximumPoolSize(POOL_SIZE);
            config.setMinimumIdle(0);
            config.setPoolName("distlock-test-" + db.id);
            return new HikariDataSource(config);
        });
    }

    /**
     * Creates a lock table of its own for one test class, from the shipped schema script.
     *
     * @return the new table's name
     */
    public LockTableName createLockTable() {
        LockTableName table = new LockTableName("dl_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16));
        executeScript(LockSchema.script(dialect(), table));
        return table;
    }

    /**
     * Drops a lock table and its sequence.
     *
     * @param table the table made by {@link #createLockTable()}
     */
    public void dropLockTable(LockTableName table) {
        execute("DROP TABLE IF EXISTS " + table + "_slots");
        execute("DROP TABLE IF EXISTS " + table);
        execute("DROP SEQUENCE IF EXISTS " + table.sequence());
    }

    /**
     * Runs a script of {@code ;}-separated statements.
     *
     * @param script the script
     */
    public void executeScript(String script) {
        try (Connection connection = dataSource().getConnection()) {
            ScriptUtils.executeSqlScript(connection, new EncodedResource(new ByteArrayResource(script.getBytes())));
        }
        catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Runs one statement.
     *
     * @param sql the statement
     * @return the update count
     */
    public int execute(String sql) {
        try (Connection connection = dataSource().getConnection(); Statement statement = connection.createStatement()) {
            return statement.executeUpdate(sql);
        }
        catch (SQLException ex) {
            throw new IllegalStateException(sql, ex);
        }
    }

    private String probe() {
        try (Connection connection = java.sql.DriverManager.getConnection(url, user, password)) {
            return connection.isValid(5) ? "" : "connection not valid";
        }
        catch (SQLException ex) {
            return ex.getMessage();
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
