package io.distlock.jdbc.migration;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.zip.CRC32;

import io.distlock.jdbc.FencingGuard;
import io.distlock.jdbc.FencingSchema;
import io.distlock.jdbc.LockSchema;
import io.distlock.jdbc.LockTableName;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.jdbc.dialect.LockDialects;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.support.EncodedResource;
import org.springframework.jdbc.datasource.init.ScriptUtils;

/**
 * The two schemas a migration tool may create: the lock table (with its token sequence and slot table) and the
 * fencing table, each from the library's own scripts for the database the connection reaches.
 */
enum SchemaScripts {

    /** The lock table, its token sequence and its slot table, and the columns later versions added. */
    LOCK_TABLE(LockTableName.DEFAULT.value()) {
        @Override
        String script(LockDialect dialect, String table) {
            LockTableName name = new LockTableName(table);
            return LockSchema.upgradeSlotsScript(dialect, name);
        }
    },

    /** The fencing table a {@link FencingGuard} keeps the highest accepted tokens in. */
    FENCING_TABLE(FencingGuard.DEFAULT_TABLE_NAME) {
        @Override
        String script(LockDialect dialect, String table) {
            return FencingSchema.script(dialect, table);
        }
    };

    private final String defaultTable;

    SchemaScripts(String defaultTable) {
        this.defaultTable = defaultTable;
    }

    /**
     * The script for a database, naming the table.
     *
     * @param dialect the database
     * @param table the table's name
     * @return {@code ;}-separated statements
     */
    abstract String script(LockDialect dialect, String table);

    /**
     * Runs the script for the database the connection reaches, on that connection.
     *
     * @param connection the migration tool's connection, left open
     * @param table the table's name, or {@code null} for the default
     * @throws SQLException when the database cannot be identified
     */
    void run(Connection connection, @Nullable String table) throws SQLException {
        DatabaseMetaData database = connection.getMetaData();
        LockDialect dialect = LockDialects.forProduct(database.getDatabaseProductName(),
                database.getDatabaseProductVersion());
        String script = script(dialect, table == null || table.isBlank() ? defaultTable : table.strip());
        ScriptUtils.executeSqlScript(connection, new EncodedResource(new ByteArrayResource(
                script.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8));
    }

    /**
     * A checksum of the scripts for every database, so that a migration tool runs them again when a later version
     * of the library changes them.
     *
     * @return the checksum
     */
    int checksum() {
        CRC32 crc = new CRC32();
        for (LockDialect dialect : LockDialects.builtIn().values()) {
            crc.update(script(dialect, defaultTable).getBytes(StandardCharsets.UTF_8));
        }
        return (int) crc.getValue();
    }
}
