package io.distlock.core.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;

import io.distlock.core.jdbc.dialect.LockDialect;
import io.distlock.core.jdbc.dialect.LockDialects;

/**
 * The admit statement of each supported database: one statement that inserts the fence row when it is absent and
 * otherwise raises its token only when the new token is at least as high, and how its outcome is read.
 */
enum FencingStatements {

    /**
     * {@code INSERT … ON CONFLICT DO UPDATE … WHERE}: under READ COMMITTED the conflicting row is locked and the
     * {@code WHERE} is evaluated on its latest committed version; one row changed means accepted.
     */
    POSTGRESQL("schema-postgresql.sql") {
        @Override
        String admitSql(String table) {
            return """
                    INSERT INTO %s AS f (name, last_token) VALUES (?, ?)
                    ON CONFLICT (name) DO UPDATE SET last_token = EXCLUDED.last_token
                    WHERE f.last_token <= EXCLUDED.last_token
                    """.formatted(table);
        }

        @Override
        FencingResult admit(Connection connection, String sql, String name, long token) throws SQLException {
            try (PreparedStatement statement = prepare(connection, sql, name, token)) {
                return statement.executeUpdate() == 1 ? FencingResult.ACCEPTED : FencingResult.REFUSED;
            }
        }
    },

    /**
     * {@code INSERT … ON DUPLICATE KEY UPDATE … RETURNING}: the duplicate row is locked and read in its latest
     * version, and the returned token is the row's final state. The affected-row count is not used, because
     * Connector/J reports found rows by default.
     */
    MARIADB("schema-mysql.sql") {
        @Override
        String admitSql(String table) {
            return """
                    INSERT INTO %s (name, last_token) VALUES (?, ?)
                    ON DUPLICATE KEY UPDATE
                        last_token = IF(last_token <= VALUES(last_token), VALUES(last_token), last_token)
                    RETURNING last_token
                    """.formatted(table);
        }

        @Override
        FencingResult admit(Connection connection, String sql, String name, long token) throws SQLException {
            try (PreparedStatement statement = prepare(connection, sql, name, token);
                    ResultSet rs = statement.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("The fencing statement returned no row for '" + name + "'");
                }
                return rs.getLong(1) == token ? FencingResult.ACCEPTED : FencingResult.REFUSED;
            }
        }
    },

    /**
     * {@code MERGE … USING … WHEN MATCHED AND … WHEN NOT MATCHED}: a waiting update re-evaluates its condition on
     * the row it locked. Two first writes of a brand-new name can collide on the primary key; H2 rolls back only
     * the failed statement, and the retry takes the matched path.
     */
    H2("schema-h2.sql") {
        @Override
        String admitSql(String table) {
            return """
                    MERGE INTO %s f
                    USING (VALUES (CAST(? AS VARCHAR(255)), CAST(? AS BIGINT))) AS s(name, token)
                    ON f.name = s.name
                    WHEN MATCHED AND f.last_token <= s.token THEN UPDATE SET last_token = s.token
                    WHEN NOT MATCHED THEN INSERT (name, last_token) VALUES (s.name, s.token)
                    """.formatted(table);
        }

        @Override
        FencingResult admit(Connection connection, String sql, String name, long token) throws SQLException {
            try {
                return admitOnce(connection, sql, name, token);
            }
            catch (SQLException ex) {
                if (!DUPLICATE_KEY.equals(ex.getSQLState())) {
                    throw ex;
                }
                return admitOnce(connection, sql, name, token);
            }
        }

        private FencingResult admitOnce(Connection connection, String sql, String name, long token)
                throws SQLException {
            try (PreparedStatement statement = prepare(connection, sql, name, token)) {
                return statement.executeUpdate() == 1 ? FencingResult.ACCEPTED : FencingResult.REFUSED;
            }
        }
    };

    private static final String DUPLICATE_KEY = "23505";

    private final String schemaScript;

    FencingStatements(String schemaScript) {
        this.schemaScript = schemaScript;
    }

    /**
     * Picks the statements of a lock dialect's database.
     *
     * @param dialect one of {@link LockDialects}' dialects
     * @return the matching statements
     */
    static FencingStatements of(LockDialect dialect) {
        return switch (dialect.name().toLowerCase(Locale.ROOT)) {
            case "postgresql" -> POSTGRESQL;
            case "mariadb" -> MARIADB;
            case "h2" -> H2;
            default -> throw new IllegalArgumentException("Fencing is not supported on " + dialect.name()
                    + "; supported: " + LockDialects.SUPPORTED);
        };
    }

    /**
     * The class path location of this database's DDL, which names the table {@code fencing_tokens}.
     *
     * @return the location
     */
    String schemaLocation() {
        return "io/distlock/core/jdbc/dialect/fencing-" + schemaScript;
    }

    /**
     * The admit statement for a table. Parameters: name, token.
     *
     * @param table the fencing table's name, already checked
     * @return the statement text
     */
    abstract String admitSql(String table);

    /**
     * Runs the admit statement on the caller's connection, without committing.
     *
     * @param connection the caller's connection, inside its transaction
     * @param sql the text made by {@link #admitSql(String)}
     * @param name the protected resource's name
     * @param token the writer's fencing token
     * @return the decision
     * @throws SQLException when the statement fails
     */
    abstract FencingResult admit(Connection connection, String sql, String name, long token) throws SQLException;

    private static PreparedStatement prepare(Connection connection, String sql, String name, long token)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            statement.setString(1, name);
            statement.setLong(2, token);
            return statement;
        }
        catch (SQLException | RuntimeException ex) {
            statement.close();
            throw ex;
        }
    }
}
