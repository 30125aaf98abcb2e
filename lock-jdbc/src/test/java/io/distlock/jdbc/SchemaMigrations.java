package io.distlock.jdbc;

import java.sql.Connection;
import java.util.Map;
import java.util.UUID;

import io.distlock.jdbc.migration.FencingTableFlywayMigration;
import io.distlock.jdbc.migration.LockTableFlywayMigration;
import io.distlock.testsupport.TestDatabase;
import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.Liquibase;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * For tests: creates the lock and fencing tables with real Flyway and real Liquibase, as an application would, each
 * under names of its own (and a history table of its own) so that runs never meet.
 */
final class SchemaMigrations {

    static final String FLYWAY_LOCATION = "classpath:io/distlock/jdbc/migration";

    static final String LIQUIBASE_CHANGELOG = "io/distlock/jdbc/migration/distlock-changelog.xml";

    private SchemaMigrations() {
    }

    /** A fresh lock table name, for the migration to create. */
    static LockTableName freshTable() {
        return new LockTableName("mg_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16));
    }

    /**
     * Runs the library's Flyway migrations.
     *
     * @return what Flyway did
     */
    static MigrateResult flyway(TestDatabase database, LockTableName table, String fencingTable) {
        return Flyway.configure().dataSource(database.dataSource()).locations(FLYWAY_LOCATION)
                .table(historyTable(table)).baselineOnMigrate(true).placeholders(Map.of(LockTableFlywayMigration.TABLE_PLACEHOLDER,
                        table.value(), FencingTableFlywayMigration.TABLE_PLACEHOLDER, fencingTable))
                .load().migrate();
    }

    /**
     * Runs the library's Liquibase changelog.
     *
     * @return how many change sets had not run before
     */
    static int liquibase(TestDatabase database, LockTableName table, String fencingTable) throws Exception {
        return liquibase(database, LIQUIBASE_CHANGELOG, table, fencingTable);
    }

    /**
     * Runs a Liquibase changelog.
     *
     * @return how many change sets had not run before
     */
    static int liquibase(TestDatabase database, String changelog, LockTableName table, String fencingTable)
            throws Exception {
        try (Connection connection = database.dataSource().getConnection()) {
            Database target = DatabaseFactory.getInstance()
                    .findCorrectDatabaseImplementation(new JdbcConnection(connection));
            target.setDatabaseChangeLogTableName(historyTable(table));
            target.setDatabaseChangeLogLockTableName(historyTable(table) + "_lock");
            Liquibase liquibase = new Liquibase(changelog, new ClassLoaderResourceAccessor(), target);
            liquibase.setChangeLogParameter("distlock.table-name", table.value());
            liquibase.setChangeLogParameter("distlock.fencing-table-name", fencingTable);
            int pending = liquibase.listUnrunChangeSets(new Contexts(), new LabelExpression()).size();
            liquibase.update(new Contexts(), new LabelExpression());
            return pending;
        }
    }

    /** Drops what a migration made: the tables, the sequence and the tool's history tables. */
    static void drop(TestDatabase database, LockTableName table, String fencingTable) {
        database.dropLockTable(table);
        database.execute("DROP TABLE IF EXISTS " + fencingTable);
        database.execute("DROP TABLE IF EXISTS " + historyTable(table));
        database.execute("DROP TABLE IF EXISTS " + historyTable(table) + "_lock");
    }

    private static String historyTable(LockTableName table) {
        return table.value() + "_history";
    }
}
