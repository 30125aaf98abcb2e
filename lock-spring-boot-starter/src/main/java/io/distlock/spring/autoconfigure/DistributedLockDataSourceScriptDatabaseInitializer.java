package io.distlock.spring.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import io.distlock.core.jdbc.LockSchema;
import io.distlock.core.jdbc.LockTableName;

import org.springframework.boot.jdbc.DatabaseDriver;
import org.springframework.boot.jdbc.init.PropertiesBasedDataSourceScriptDatabaseInitializer;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.Resource;

/**
 * Creates the lock table and its token sequence from the script for the database (H2, PostgreSQL, MariaDB), renamed
 * to the configured table name.
 */
public class DistributedLockDataSourceScriptDatabaseInitializer
        extends PropertiesBasedDataSourceScriptDatabaseInitializer<DistributedLockJdbcProperties> {

    private static final Map<DatabaseDriver, String> PLATFORMS = Map.of(DatabaseDriver.H2, "h2",
            DatabaseDriver.POSTGRESQL, "postgresql", DatabaseDriver.MARIADB, "mysql", DatabaseDriver.MYSQL, "mysql");

    private final LockTableName table;

    /**
     * Creates the initializer.
     *
     * @param dataSource the data source holding the lock table
     * @param properties where the script is and when it runs
     * @param tableName the lock table's name, which replaces {@code distributed_locks} in the script
     */
    public DistributedLockDataSourceScriptDatabaseInitializer(DataSource dataSource,
            DistributedLockJdbcProperties properties, String tableName) {
        super(dataSource, properties, PLATFORMS);
        this.table = new LockTableName(tableName);
    }

    @Override
    protected void runScripts(Scripts scripts) {
        if (table.equals(LockTableName.DEFAULT)) {
            super.runScripts(scripts);
            return;
        }
        Charset encoding = scripts.getEncoding() != null ? scripts.getEncoding() : StandardCharsets.UTF_8;
        List<Resource> renamed = new ArrayList<>();
        for (Resource script : scripts) {
            renamed.add(renamed(script, encoding));
        }
        super.runScripts(new Scripts(renamed).continueOnError(scripts.isContinueOnError())
                .separator(scripts.getSeparator()).encoding(encoding));
    }

    private Resource renamed(Resource script, Charset encoding) {
        try {
            String text = LockSchema.rename(script.getContentAsString(encoding), table);
            return new ByteArrayResource(text.getBytes(encoding), script.getDescription() + " for table " + table);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read lock table script " + script, ex);
        }
    }
}
