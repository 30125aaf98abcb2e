package io.distlock.jdbc;

import java.util.List;

import io.distlock.jdbc.dialect.LockDialect;

/**
 * The DDL that creates the fencing table, read from the script shipped for each database and renamed to the
 * configured table, and the start-up check that it exists. The table holds one row per protected resource: its
 * {@code name} and the {@code last_token} it accepted.
 */
public final class FencingSchema {

    private FencingSchema() {
    }

    /**
     * Returns the DDL script for a database, naming the given table.
     *
     * @param dialect the database's dialect, as used for the lock table
     * @param tableName the fencing table's name: a plain SQL identifier, optionally schema-qualified
     * @return the script's text: {@code ;}-separated statements
     * @throws IllegalArgumentException when the table name is not a plain identifier
     */
    public static String script(LockDialect dialect, String tableName) {
        String table = FencingGuard.requireTableName(tableName);
        return LockSchema.read(dialect.fencingSchemaLocation()).replace(FencingGuard.DEFAULT_TABLE_NAME, table);
    }

    /**
     * Checks that the fencing table and its columns exist, with a query that reads no row.
     *
     * @throws IllegalStateException when the table is missing, lacks its columns or cannot be read, naming the
     *     script that creates it
     */
    static void verify(StatementExecutor executor, LockDialect dialect, String table) {
        String check = "SELECT name, last_token FROM " + table + " WHERE 1 = 0";
        executor.probe("verify fencing table", List.of(check), (ex, translated) -> new IllegalStateException(
                "Fencing table '" + table + "' (columns name, last_token) is missing or unreadable: "
                        + ex.getMessage().strip() + ". Create it with the script " + dialect.fencingSchemaLocation()
                        + " from the lock-jdbc jar (renaming " + FencingGuard.DEFAULT_TABLE_NAME + " to " + table
                        + "), or FencingSchema.script(dialect, \"" + table + "\")", ex));
    }
}
