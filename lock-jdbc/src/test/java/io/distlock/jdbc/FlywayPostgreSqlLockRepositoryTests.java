package io.distlock.jdbc;

import io.distlock.testsupport.TestDatabase;

/**
 * The lock repository contract on PostgreSQL, on a lock table that Flyway created with the library's migration.
 */
class FlywayPostgreSqlLockRepositoryTests extends MigratedLockRepositoryContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }

    @Override
    protected void migrate(LockTableName table, String fencingTable) throws Exception {
        SchemaMigrations.flyway(database(), table, fencingTable);
    }
}
