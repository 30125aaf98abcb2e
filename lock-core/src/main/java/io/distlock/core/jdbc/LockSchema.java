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
     * Renames the lock table, and with it the token sequence, in a script written for {@code distributed_locks}.
     *
     * @param script a DDL script naming {@code distributed_locks}
     * @param table the lock table's name
     * @return the script naming {@code table}
     */
    public static String rename(String script, LockTableName table) {
        return script.replace(LockTableName.DEFAULT.value(), table.value());
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
            return rename(new String(in.readAllBytes(), StandardCharsets.UTF_8), table);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read schema script " + location, ex);
        }
    }
}
