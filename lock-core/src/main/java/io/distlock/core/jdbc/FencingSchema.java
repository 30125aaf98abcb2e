package io.distlock.core.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import io.distlock.core.jdbc.dialect.LockDialect;

/**
 * The DDL that creates the fencing table, read from the script shipped for each database and renamed to the
 * configured table. The table holds one row per protected resource: its {@code name} and the {@code last_token}
 * it accepted.
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
        String location = dialect.fencingSchemaLocation();
        try (InputStream in = FencingSchema.class.getClassLoader().getResourceAsStream(location)) {
            if (in == null) {
                throw new IllegalStateException("Schema script " + location + " is missing from the class path");
            }
            String script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return script.replace(FencingGuard.DEFAULT_TABLE_NAME, table);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read schema script " + location, ex);
        }
    }
}
