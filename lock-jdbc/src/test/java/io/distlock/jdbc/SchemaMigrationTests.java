package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.distlock.core.LockRecord;
import io.distlock.core.LockResult;
import io.distlock.testsupport.CountingDataSource;
import io.distlock.testsupport.TestDatabase;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The lock and fencing tables as an application whose schema Flyway or Liquibase owns gets them: real Flyway and
 * real Liquibase on H2, PostgreSQL and MariaDB create tables that the repository's and the fencing guard's schema
 * checks accept, under the names configured, run again without doing anything, and bring a lock table made by an
 * earlier version up to date.
 */
class SchemaMigrationTests {

    private final List<Runnable> cleanUp = new ArrayList<>();

    @AfterEach
    void dropTables() {
        cleanUp.forEach(Runnable::run);
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void flywayCreatesTablesUnderTheConfiguredNamesThatTheRepositoryAndTheFencingGuardAccept(TestDatabase database)
            throws SQLException {
        LockTableName table = fresh(database);
        MigrateResult first = SchemaMigrations.flyway(database, table, fencing(table));
        assertThat(first.migrationsExecuted).isEqualTo(2);
        assertTablesWork(database, table);
        assertThat(SchemaMigrations.flyway(database, table, fencing(table)).migrationsExecuted)
                .as("unchanged repeatable migrations do not run again").isZero();
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void liquibaseCreatesTablesUnderTheConfiguredNamesThatTheRepositoryAndTheFencingGuardAccept(TestDatabase database)
            throws Exception {
        LockTableName table = fresh(database);
        assertThat(SchemaMigrations.liquibase(database, table, fencing(table))).isEqualTo(2);
        assertTablesWork(database, table);
        assertThat(SchemaMigrations.liquibase(database, table, fencing(table)))
                .as("the change sets ran already").isZero();
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void flywayAddsTheSlotColumnsAndTableToALockTableMadeWithoutThem(TestDatabase database) {
        LockTableName table = fresh(database);
        database.executeScript(LockSchema.script(database.dialect(), table));
        database.execute("DROP TABLE " + table + "_slots");
        for (String column : List.of("slot_at", "slot_token", "slot_state", "slot_runs")) {
            database.execute("ALTER TABLE " + table + " DROP COLUMN " + column);
        }
        JdbcLockRepository repository = repository(database, table);
        assertThatThrownBy(repository::verifySlots).as("the earlier table has no slots");

        SchemaMigrations.flyway(database, table, fencing(table));

        repository.verifySchema();
        repository.verifySlots();
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void theCleanUpOfATableMadeWithoutSlotColumnsAsksOnceAndThenRunsWithoutErrors(TestDatabase database) {
        LockTableName table = fresh(database);
        database.executeScript(LockSchema.script(database.dialect(), table));
        database.execute("DROP TABLE " + table + "_slots");
        for (String column : List.of("slot_at", "slot_token", "slot_state", "slot_runs")) {
            database.execute("ALTER TABLE " + table + " DROP COLUMN " + column);
        }
        CountingDataSource counting = new CountingDataSource(database.dataSource());
        JdbcLockRepository repository = JdbcLockRepository.builder(counting).tableName(table.value())
                .dialect(database.dialect()).build();
        repository.acquire("held", "owner-1", Duration.ofMinutes(1)).orElseThrow();
        assertThat(repository.deleteExpired(JdbcLockRepository.MIN_RETENTION)).isZero();
        counting.reset();
        for (int run = 0; run < 3; run++) {
            assertThat(repository.deleteExpired(JdbcLockRepository.MIN_RETENTION)).isZero();
        }
        assertThat(counting.errors()).as("no statement the database refused: the schema is known").isZero();
        assertThat(counting.statements()).as("each run deleted").isGreaterThanOrEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void liquibaseRefusesAnUnknownSchemaNamingTheAttributeAndCreatesNothing(TestDatabase database) {
        LockTableName table = fresh(database);
        assertThatThrownBy(() -> SchemaMigrations.liquibase(database,
                "io/distlock/jdbc/migration/unknown-schema-changelog.xml", table, fencing(table)))
                .hasStackTraceContaining("attribute 'schema' = 'locks' is not one of lock-table, fencing-table");
        assertThatThrownBy(repository(database, new LockTableName("never_made"))::verifySchema)
                .isInstanceOf(LockTableMissingException.class);
    }

    private void assertTablesWork(TestDatabase database, LockTableName table) throws SQLException {
        JdbcLockRepository repository = repository(database, table);
        repository.verifySchema();
        repository.verifySlots();
        FencingGuard guard = FencingGuard.builder(database.dataSource()).tableName(fencing(table))
                .dialect(database.dialect()).build();
        guard.verifySchema();
        LockRecord lock = repository.acquire("migrated", "owner-1", Duration.ofMinutes(1)).orElseThrow();
        try (Connection connection = database.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            assertThat(guard.admit(connection, "ledger", lock.token())).isEqualTo(FencingResult.ACCEPTED);
            connection.commit();
            connection.setAutoCommit(true);
        }
        assertThat(repository.release("migrated", "owner-1", Duration.ZERO)).isEqualTo(LockResult.APPLIED);
    }

    private LockTableName fresh(TestDatabase database) {
        database.assumeAvailable();
        LockTableName table = SchemaMigrations.freshTable();
        cleanUp.add(() -> SchemaMigrations.drop(database, table, fencing(table)));
        return table;
    }

    private static JdbcLockRepository repository(TestDatabase database, LockTableName table) {
        return JdbcLockRepository.builder(database.dataSource()).tableName(table.value())
                .dialect(database.dialect()).build();
    }

    private static String fencing(LockTableName table) {
        return table.value() + "_fencing";
    }
}
