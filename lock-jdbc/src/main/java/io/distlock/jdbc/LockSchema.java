package io.distlock.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.distlock.core.TimeSource;

import io.distlock.jdbc.dialect.LockDialect;

import org.springframework.jdbc.BadSqlGrammarException;

/**
 * The DDL that creates the lock table and its token sequence, read from the script shipped beside each dialect and
 * renamed to the configured table, and the start-up check that they exist.
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
        return rename(read(dialect.schemaLocation()), table);
    }

    /**
     * Returns the script that brings a lock table up to date, naming the given table: the schema script, which creates
     * what is missing (the slot table of a lock table made by distlock 0.1 among them), followed by the one that adds
     * the scheduled-slot columns to a lock table made by distlock 0.1. It can run again safely, on a table of any
     * version or on none.
     *
     * @param dialect the database's dialect
     * @param table the lock table's name
     * @return the script's text: {@code ;}-separated statements
     */
    public static String upgradeSlotsScript(LockDialect dialect, LockTableName table) {
        return script(dialect, table) + ";\n" + rename(read(JdbcSlotStore.upgradeLocation(dialect)), table);
    }

    /**
     * Checks that the lock table, its columns and its token sequence exist, with queries that read no row, and that
     * the columns have types that keep the guarantees.
     *
     * @throws LockTableMissingException when one is missing or a column's type is wrong, naming the table, column,
     *     type found and type expected, and the script that creates them
     */
    static void verify(StatementExecutor executor, LockDialect dialect, LockTableName table) {
        List<String> checks = List.of("SELECT " + LockDialect.COLUMNS + " FROM " + table + " WHERE 1 = 0",
                dialect.checkSequence(table.sequence()));
        executor.probe("verify lock table", checks, (ex, translated) -> translated instanceof BadSqlGrammarException
                ? new LockTableMissingException(missingTableMessage(dialect, table, ex.getMessage()), ex)
                : translated);
        verifyColumnTypes(executor, dialect, table);
    }

    /**
     * Checks the columns' types as the dialect judges them: a timestamp that drops its zone lets a replica in another
     * time zone take a live lock, a case-insensitive or space-padding collation merges names, and a {@code resource}
     * that is not a unique key lets two owners insert a row each.
     */
    private static void verifyColumnTypes(StatementExecutor executor, LockDialect dialect, LockTableName table) {
        String query = dialect.columnTypesQuery();
        if (query == null) {
            return;
        }
        TimedStatement columns = TimedStatement.compile(executor.bound(query), dialect, TimeSource.DATABASE);
        int dot = table.value().indexOf('.');
        String schema = dot < 0 ? null : table.value().substring(0, dot);
        String name = table.value().substring(dot + 1);
        Map<String, String> found = new LinkedHashMap<>();
        executor.runAlone("verify lock table column types", columns, connection -> executor.queryAll(connection,
                columns, rs -> Map.entry(rs.getString(1).toLowerCase(Locale.ROOT), rs.getString(2)), schema, name))
                .forEach(column -> found.put(column.getKey(), column.getValue()));
        List<String> problems = new ArrayList<>();
        for (String column : LockDialect.COLUMNS.split(", ")) {
            String type = found.get(column);
            String expected = type != null ? dialect.expectedColumnType(column, type) : null;
            if (expected != null) {
                problems.add(column + " is '" + type + "', expected " + expected);
            }
        }
        if (!problems.isEmpty()) {
            throw new LockTableMissingException("Lock table '" + table + "' in " + dialect.name() + " has columns "
                    + "whose types break the lock's guarantees: " + String.join("; ", problems) + ". Recreate the "
                    + "table with the script " + dialect.schemaLocation() + " from the lock-jdbc jar"
                    + (table.equals(LockTableName.DEFAULT) ? "" : " (renaming distributed_locks to " + table + ")")
                    + ", or alter these columns to the expected types", null);
        }
    }

    private static String missingTableMessage(LockDialect dialect, LockTableName table, String failure) {
        return "Lock table '" + table + "' (columns " + LockDialect.COLUMNS + ") or its token sequence '"
                + table.sequence() + "' is missing in " + dialect.name() + ": " + failure.strip()
                + ". Create them with the script " + dialect.schemaLocation() + " from the lock-jdbc jar"
                + (table.equals(LockTableName.DEFAULT) ? "" : " (renaming distributed_locks to " + table + ")")
                + ", or let the Spring Boot starter do it with distributed-lock.jdbc.initialize-schema=always";
    }

    /**
     * Reads a schema script from the class path.
     *
     * @param location the script's class path location
     * @return its text
     */
    static String read(String location) {
        try (InputStream in = LockSchema.class.getClassLoader().getResourceAsStream(location)) {
            if (in == null) {
                throw new IllegalStateException("Schema script " + location + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read schema script " + location, ex);
        }
    }
}
