package io.distlock.core.jdbc.dialect;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;

import javax.sql.DataSource;

/**
 * The supported databases, and how the right dialect is picked: from the JDBC product name, or by name when
 * configured.
 */
public final class LockDialects {

    private static final Map<String, LockDialect> BY_NAME = Map.of(
            "h2", new H2LockDialect(),
            "postgresql", new PostgreSqlLockDialect(),
            "mariadb", new MariaDbLockDialect());

    /** The names {@link #byName(String)} accepts. */
    public static final String SUPPORTED = "h2 (2.x), postgresql (12 or later), mariadb (10.6 or later)";

    private LockDialects() {
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
        if (product.equals("h2")) {
            return BY_NAME.get("h2");
        }
        if (product.equals("postgresql")) {
            return BY_NAME.get("postgresql");
        }
        if (product.equals("mariadb") || productVersion.toLowerCase(Locale.ROOT).contains("mariadb")) {
            return BY_NAME.get("mariadb");
        }
        throw new IllegalStateException("Database '" + productName + " " + productVersion
                + "' is not supported for distributed locks; supported: " + SUPPORTED
                + (product.equals("mysql") ? ". MySQL lacks RETURNING and sequences, which the atomic acquire needs" : ""));
    }
}
