package io.distlock.testsupport;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
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
import io.distlock.jdbc.LockSchema;
import io.distlock.jdbc.LockTableName;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.jdbc.dialect.LockDialects;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.support.EncodedResource;
import org.springframework.jdbc.datasource.init.ScriptUtils;

/**
 * The databases that the tests, the torture test and the benchmarks run on: in-memory H2, and the PostgreSQL and
 * MariaDB servers named by {@code DISTLOCK_TEST_POSTGRESQL_URL} and {@code DISTLOCK_TEST_MARIADB_URL}, with
 * {@code _USER} and {@code _PASSWORD} beside them (by default the local servers on 127.0.0.1, users
 * {@code postgres} and {@code root}, empty passwords).
 * <p>
 * Programs ask {@link #problem()} whether a server answers and open pools of their own with
 * {@link #openPool(String, int)} or {@link #poolConfig(String, int)}. Tests use the shared {@link #dataSource()},
 * {@link #createLockTable()} and the other conveniences, which first call {@link #assumeAvailable()}: a server that
 * cannot be reached skips the calling test with a notice, unless {@code DISTLOCK_TEST_REQUIRE} names it
 * ({@code postgresql,mariadb}, or {@code all}): then the test fails, so that CI never passes by skipping. Only that
 * step uses JUnit, and only when a server is unreachable; without JUnit on the class path it throws
 * {@link IllegalStateException} instead.
 */
public enum TestDatabase {

    /** In-memory H2, always available; it lives as long as the JVM. */
    H2("h2", "jdbc:h2:mem:distlock;DB_CLOSE_DELAY=-1", "sa", ""),

    /** The PostgreSQL server, by default the local one. */
    POSTGRESQL("postgresql", env("DISTLOCK_TEST_POSTGRESQL_URL", "jdbc:postgresql://127.0.0.1:5432/test"),
            env("DISTLOCK_TEST_POSTGRESQL_USER", "postgres"), env("DISTLOCK_TEST_POSTGRESQL_PASSWORD", "")),

    /** The MariaDB server, by default the local one. */
    MARIADB("mariadb", env("DISTLOCK_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test"),
            env("DISTLOCK_TEST_MARIADB_USER", "root"), env("DISTLOCK_TEST_MARIADB_PASSWORD", ""));

    /** Size of the shared test pool: large enough for the race tests. */
    private static final int TEST_POOL_SIZE = 70;

    private static final boolean JUNIT_PRESENT = TestDatabase.class.getClassLoader()
            .getResource("org/junit/jupiter/api/Assumptions.class") != null;

    private static final Map<TestDatabase, HikariDataSource> POOLS = new ConcurrentHashMap<>();

    private static final Map<TestDatabase, String> PROBLEMS = new ConcurrentHashMap<>();

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

    /**
     * Looks a database up by its id.
     *
     * @param id {@code h2}, {@code postgresql} or {@code mariadb}, in any case
     * @return the database
     * @throws IllegalArgumentException for any other id
     */
    public static TestDatabase byId(String id) {
        for (TestDatabase database : values()) {
            if (database.id.equalsIgnoreCase(id.strip())) {
                return database;
            }
        }
        throw new IllegalArgumentException("Unknown database '" + id + "'; expected h2, postgresql or mariadb");
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

    /** @return distlock's dialect for this database */
    public LockDialect dialect() {
        return LockDialects.byName(id);
    }

    /**
     * The URL by which another JVM reaches this database. For H2 that goes through an H2 TCP server on 127.0.0.1,
     * started in the JVM that holds the in-memory database; a server's URL is the same everywhere.
     *
     * @param h2TcpPort the port of the H2 TCP server; ignored for the other databases
     * @return the JDBC URL
     */
    public String remoteUrl(int h2TcpPort) {
        return this == H2 ? "jdbc:h2:tcp://127.0.0.1:" + h2TcpPort + "/mem:distlock" : url;
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
     * Tells why the database cannot be used, if it cannot. A server is tried once per JVM; H2 always answers.
     *
     * @return empty when reachable, else the reason
     */
    public String problem() {
        return this == H2 ? "" : PROBLEMS.computeIfAbsent(this, TestDatabase::probe);
    }

    /**
     * For tests: aborts the calling test with a notice when the server cannot be reached, or fails it when the
     * database is {@linkplain #required() required}.
     *
     * @throws IllegalStateException when the server cannot be reached and JUnit is not on the class path
     */
    public void assumeAvailable() {
        String problem = problem();
        if (problem.isEmpty()) {
            return;
        }
        String message = name() + " at " + url + " is unreachable (" + problem + ")";
        if (!JUNIT_PRESENT) {
            throw new IllegalStateException(message);
        }
        JUnitSkip.skipOrFail(message, required());
    }

    /**
     * A pool configuration on this database: {@code size} connections, all opened up front, autocommit.
     *
     * @param poolName the pool's name, which its threads carry
     * @param size the number of connections
     * @return a configuration to adjust further
     */
    public HikariConfig poolConfig(String poolName, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        config.setAutoCommit(true);
        config.setPoolName(poolName);
        return config;
    }

    /**
     * Opens a pool of {@link #poolConfig(String, int)}; the caller closes it.
     *
     * @param poolName the pool's name, which its threads carry
     * @param size the number of connections
     * @return the pool
     */
    public HikariDataSource openPool(String poolName, int size) {
        return new HikariDataSource(poolConfig(poolName, size));
    }

    /**
     * For tests: a connection pool on this database shared by every test of the JVM, large enough for the race
     * tests. It opens connections on demand and is never closed.
     *
     * @return the pooled data source
     */
    public DataSource dataSource() {
        assumeAvailable();
        return POOLS.computeIfAbsent(this, db -> {
            HikariConfig config = db.poolConfig("distlock-test-" + db.id, TEST_POOL_SIZE);
            config.setMinimumIdle(0);
            return new HikariDataSource(config);
        });
    }

    /**
     * For tests: creates a lock table of its own for one test class, from the shipped schema script.
     *
     * @return the new table's name
     */
    public LockTableName createLockTable() {
        LockTableName table = new LockTableName("dl_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16));
        executeScript(LockSchema.script(dialect(), table));
        return table;
    }

    /**
     * For tests: drops a lock table, its slot table and its sequence.
     *
     * @param table the table made by {@link #createLockTable()}
     */
    public void dropLockTable(LockTableName table) {
        execute("DROP TABLE IF EXISTS " + table + "_slots");
        execute("DROP TABLE IF EXISTS " + table);
        execute("DROP SEQUENCE IF EXISTS " + table.sequence());
    }

    /**
     * For tests: ends a lock's lease behind its holder's back, as if it had expired in 2000.
     *
     * @param table the lock table
     * @param resource the lock's resource
     * @return how many rows changed: 1 when the lock's row exists
     */
    public int expireLongAgo(LockTableName table, String resource) {
        try (Connection connection = dataSource().getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "UPDATE " + table + " SET expires_at = ? WHERE resource = ?")) {
            statement.setObject(1, dialect().instantParameter(Instant.parse("2000-01-01T00:00:00Z")));
            statement.setString(2, resource);
            return statement.executeUpdate();
        }
        catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * For tests: the database's clock, read as the lock statements read it in database-time mode.
     *
     * @return the database's time now
     */
    public Instant currentTime() {
        try (Connection connection = dataSource().getConnection();
                PreparedStatement statement = connection.prepareStatement("SELECT "
                        + dialect().currentTimeExpression());
                ResultSet rs = statement.executeQuery()) {
            rs.next();
            return dialect().readInstant(rs, 1);
        }
        catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * For tests: runs a script of {@code ;}-separated statements on the {@linkplain #dataSource() shared pool}.
     *
     * @param script the script
     */
    public void executeScript(String script) {
        try (Connection connection = dataSource().getConnection()) {
            ByteArrayResource resource = new ByteArrayResource(script.getBytes(StandardCharsets.UTF_8));
            ScriptUtils.executeSqlScript(connection, new EncodedResource(resource, StandardCharsets.UTF_8));
        }
        catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * For tests: runs one statement on the {@linkplain #dataSource() shared pool}.
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

    /**
     * The server's version, for reports.
     *
     * @return the product and version as the server states them, or {@code unknown (reason)}
     */
    public String serverVersion() {
        String sql = this == H2 ? "SELECT H2VERSION()" : "SELECT version()";
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            String version = rs.getString(1);
            return switch (this) {
                case H2 -> "H2 " + version;
                case POSTGRESQL -> version.replaceFirst(" on .*", "");
                case MARIADB -> "MariaDB " + version;
            };
        }
        catch (SQLException ex) {
            return "unknown (" + ex.getMessage() + ")";
        }
    }

    private String probe() {
        try (Connection connection = DriverManager.getConnection(url, user, password)) {
            return connection.isValid(5) ? "" : "connection not valid";
        }
        catch (SQLException ex) {
            return ex.getMessage() != null ? ex.getMessage() : ex.toString();
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
