package io.distlock.spring.jdbc;

import javax.sql.DataSource;

import io.distlock.jdbc.FencingGuard;
import io.distlock.jdbc.dialect.LockDialect;
import org.jspecify.annotations.Nullable;

/**
 * Creates the fencing table from the script lock-jdbc ships for the database, renamed to the configured table, under
 * the lock table's initialisation mode ({@code distributed-lock.jdbc.initialize-schema}).
 */
final class FencingTableScriptDatabaseInitializer extends DistributedLockDataSourceScriptDatabaseInitializer {

    static final String SCHEMA_LOCATION = "classpath:io/distlock/jdbc/dialect/fencing-schema-@@platform@@.sql";

    private final String fencingTable;

    FencingTableScriptDatabaseInitializer(DataSource dataSource, DistributedLockJdbcProperties jdbc,
            String fencingTable, @Nullable LockDialect dialect) {
        super(dataSource, jdbc.with(SCHEMA_LOCATION, jdbc.getPlatform()), "distributed_locks", dialect);
        this.fencingTable = fencingTable;
    }

    @Override
    boolean renames() {
        return !fencingTable.equals(FencingGuard.DEFAULT_TABLE_NAME);
    }

    @Override
    String rename(String script) {
        return script.replace(FencingGuard.DEFAULT_TABLE_NAME, fencingTable);
    }
}
