package io.distlock.core.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import io.distlock.core.jdbc.dialect.LockDialect;

/**
 * The DDL that creates the lock table and its token sequence, read from the script shipped beside each dialect and
 * renamed to the configured table.
 */
public final class LockSchema {

    private LockSchema() {
    }

    /**
     * Returns the DDL script for a database, naming the given table.
     *
     * @param dialect the database's dialect
     * @param table the lock table's name
     * @return the script's text: {@code ;}-separated statements
     */
    public static String script(LockDialect dialect, LockTableName table) {
        String location = dialect.schemaLocation();
        try (InputStream in = LockSchema.class.getClassLoader().getResourceAsStream(location)) {
            if (in == null) {
                throw new IllegalStateException("Schema script " + location + " is missing from the class path");
            }
            String script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return script.replace(LockTableName.DEFAULT.value(), table.value());
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read schema script " + location, ex);
        }
    }
}
