package io.distlock.jdbc;

import io.distlock.testsupport.TestDatabase;

/**
 * The lock repository contract on PostgreSQL, on a lock table that Liquibase created with the library's migration.
 */
class LiquibasePostgreSqlLockRepositoryTests extends MigratedLockRepositoryContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }

    @Override
    protected void migrate(LockTableName table, String fencingTable) throws Exception {
        SchemaMigrations.liquibase(database(), table, fencingTable);
    }
}
