package io.distlock.benchmarks;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.distlock.core.jdbc.dialect.LockDialect;
import io.distlock.core.jdbc.dialect.LockDialects;

/**
 * The databases the benchmarks run on: in-memory H2 and the local PostgreSQL and MariaDB servers. Every
 * implementation gets the same HikariCP pool settings on the same database. URLs and users can be overridden with
 * the {@code DISTLOCK_BENCH_<DB>_URL}, {@code _USER} and {@code _PASSWORD} environment variables.
 */
public enum BenchDatabase {

    /** In-memory H2: measures the library's own overhead, with no network in between. */
    H2("h2", "jdbc:h2:mem:distlock-bench;DB_CLOSE_DELAY=-1", "sa", ""),

    /** The local PostgreSQL server. */
    POSTGRESQL("postgresql", "jdbc:postgresql://127.0.0.1:5432/test", "postgres", ""),

    /** The local MariaDB server. */
    MARIADB("mariadb", "jdbc:mariadb://127.0.0.1:3306/test", "root", "");

    /** Pool size for every implementation: enough for the largest thread count, so nobody waits for a connection. */
    public static final int POOL_SIZE = 16;

    private final String id;

    private final String url;

    private final String user;

    private final String password;

    BenchDatabase(String id, String url, String user, String password) {
        this.id = id;
        String prefix = "DISTLOCK_BENCH_" + id.toUpperCase(Locale.ROOT) + "_";
        this.url = env(prefix + "URL", url);
        this.user = env(prefix + "USER", user);
        this.password = env(prefix + "PASSWORD", password);
    }

    /**
     * Looks a database up by its id.
     *
     * @param id {@code h2}, {@code postgresql} or {@code mariadb}
     * @return the database
     */
    public static BenchDatabase byId(String id) {
        for (BenchDatabase db : values()) {
            if (db.id.equalsIgnoreCase(id.strip())) {
                return db;
            }
        }
        throw new IllegalArgumentException("Unknown database '" + id + "'; expected h2, postgresql or mariadb");
    }

    /** @return {@code h2}, {@code postgresql} or {@code mariadb} */
    public String id() {
        return id;
    }

    /** @return the JDBC URL */
    public String url() {
        return url;
    }

    /** @return distlock's dialect for this database */
    public LockDialect dialect() {
        return LockDialects.byName(id);
    }

    /**
     * Opens the benchmark pool: {@value #POOL_SIZE} connections, all opened up front, autocommit.
     *
     * @param name the pool's name, for thread names
     * @return the pool
     */
    public HikariDataSource openPool(String name) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(POOL_SIZE);
        config.setMinimumIdle(POOL_SIZE);
        config.setAutoCommit(true);
        config.setPoolName("bench-" + id + "-" + name);
        return new HikariDataSource(config);
    }

    /**
     * Tells why the server cannot be used, if it cannot.
     *
     * @return empty when reachable, else the reason
     */
    public String problem() {
        try (Connection connection = DriverManager.getConnection(url, user, password)) {
            return connection.isValid(5) ? "" : "connection not valid";
        }
        catch (SQLException ex) {
            return ex.getMessage();
        }
    }

    /**
     * The server's version string, for the report.
     *
     * @return the version as the server states it
     */
    public String serverVersion() {
        String sql = this == H2 ? "SELECT H2VERSION()" : "SELECT version()";
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            String version = rs.getString(1);
            return this == POSTGRESQL ? version.replaceFirst(" on .*", "") : (this == H2 ? "H2 " + version : "MariaDB " + version);
        }
        catch (SQLException ex) {
            return "unknown (" + ex.getMessage() + ")";
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value != null && !value.isBlank() ? value : fallback;
    }
}
