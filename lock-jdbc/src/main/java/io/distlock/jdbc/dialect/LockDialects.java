package io.distlock.jdbc.dialect;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

/**
 * The supported databases, and how the right dialect is picked: from the JDBC product name, or by name when
 * configured.
 */
public final class LockDialects {

    /** Each built-in dialect by its configured name, which is also its JDBC URL's subprotocol. */
    private static final Map<String, LockDialect> BY_NAME = builtIn(new H2LockDialect(), new PostgreSqlLockDialect(),
            new MariaDbLockDialect());

    /** Where the built-in dialects' scripts lie on the class path. */
    private static final String SCRIPTS = "io/distlock/jdbc/dialect/";

    /** The names {@link #byName(String)} accepts. */
    public static final String SUPPORTED = "h2 (2.x), postgresql (12 or later), mariadb (10.6 or later)";

    private LockDialects() {
    }

    private static Map<String, LockDialect> builtIn(H2LockDialect h2, PostgreSqlLockDialect postgresql,
            MariaDbLockDialect mariadb) {
        Map<String, LockDialect> byName = new LinkedHashMap<>();
        byName.put("h2", h2);
        byName.put("postgresql", postgresql);
        byName.put("mariadb", mariadb);
        return Collections.unmodifiableMap(byName);
    }

    /**
     * Looks up a dialect by its configured name.
     *
     * @param name {@code h2}, {@code postgresql} or {@code mariadb}, in any case
     * @return the dialect
     * @throws IllegalArgumentException naming the supported dialects when {@code name} is none of them
     */
    public static LockDialect byName(String name) {
        LockDialect dialect = BY_NAME.get(name.strip().toLowerCase(Locale.ROOT));
        if (dialect == null) {
            throw new IllegalArgumentException("Unknown lock dialect '" + name + "'; supported: " + SUPPORTED);
        }
        return dialect;
    }

    /**
     * The built-in dialects by their configured names, in a fixed order.
     *
     * @return {@code h2}, {@code postgresql} and {@code mariadb}
     */
    public static Map<String, LockDialect> builtIn() {
        return BY_NAME;
    }

    /**
     * Looks up a built-in dialect by the platform its scripts are written for ({@code schema-@@platform@@.sql}),
     * which is also Spring Boot's id of the database's driver; a platform an earlier version named the scripts for
     * ({@link DialectSchema#formerPlatforms()}) finds its dialect too.
     *
     * @param platform a platform or driver id such as {@code postgresql}, in any case
     * @return the dialect, or {@code null} when no built-in dialect has that platform
     */
    public static @Nullable LockDialect forPlatform(String platform) {
        String wanted = platform.strip().toLowerCase(Locale.ROOT);
        for (LockDialect dialect : BY_NAME.values()) {
            if (dialect.platform().equals(wanted) || dialect.formerPlatforms().contains(wanted)) {
                return dialect;
            }
        }
        return null;
    }

    /**
     * The script a location names as this version calls it: a location of one of the library's own scripts under
     * the name an earlier version gave it ({@code …/dialect/schema-mysql.sql}) becomes the current name
     * ({@code …/dialect/schema-mariadb.sql}); any other location stays as it is.
     *
     * @param location a script location, such as a {@code distributed-lock.jdbc.schema} setting
     * @return the location to read
     */
    public static String currentScriptLocation(String location) {
        int dir = location.indexOf(SCRIPTS);
        if (dir < 0) {
            return location;
        }
        for (LockDialect dialect : BY_NAME.values()) {
            for (String former : dialect.formerPlatforms()) {
                if (location.endsWith("-" + former + ".sql")) {
                    return location.substring(0, location.length() - former.length() - 4) + dialect.platform()
                            + ".sql";
                }
            }
        }
        return location;
    }

    /**
     * Picks the dialect a JDBC URL names, without connecting.
     *
     * @param url a JDBC URL such as {@code jdbc:postgresql://db/app}
     * @return the dialect, or {@code null} when the URL names no supported database
     */
    public static @Nullable LockDialect forJdbcUrl(String url) {
        for (Map.Entry<String, LockDialect> dialect : BY_NAME.entrySet()) {
            if (url.startsWith("jdbc:" + dialect.getKey() + ":")) {
                return dialect.getValue();
            }
        }
        return null;
    }

    /**
     * Picks the dialect of the database behind a data source.
     *
     * @param dataSource the data source holding the lock table
     * @return the dialect
     * @throws IllegalStateException when the database cannot be reached or is not supported
     */
    public static LockDialect detect(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            DatabaseMetaData metaData = connection.getMetaData();
            return forProduct(metaData.getDatabaseProductName(), metaData.getDatabaseProductVersion());
        }
        catch (SQLException ex) {
            throw new IllegalStateException("Cannot detect the lock dialect: the database did not answer ("
                    + ex.getMessage() + "); set the dialect explicitly or check the connection", ex);
        }
    }

    /**
     * Picks the dialect for a JDBC product name and version.
     *
     * @param productName what {@link DatabaseMetaData#getDatabaseProductName()} answered
     * @param productVersion what {@link DatabaseMetaData#getDatabaseProductVersion()} answered
     * @return the dialect
     * @throws IllegalStateException naming the supported databases when this one is not
     */
    public static LockDialect forProduct(String productName, String productVersion) {
        String product = productName.toLowerCase(Locale.ROOT);
        // MariaDB's driver may answer "MySQL" as the product, with "MariaDB" in the version.
        String name = productVersion.toLowerCase(Locale.ROOT).contains("mariadb") ? "mariadb" : product;
        LockDialect dialect = BY_NAME.get(name);
        if (dialect != null) {
            return dialect;
        }
        throw new IllegalStateException("Database '" + productName + " " + productVersion
                + "' is not supported for distributed locks; supported: " + SUPPORTED
                + (product.equals("mysql") ? ". MySQL lacks RETURNING and sequences, which the atomic acquire needs" : ""));
    }
}
