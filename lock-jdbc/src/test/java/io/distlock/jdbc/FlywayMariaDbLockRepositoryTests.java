package io.distlock.jdbc;

import io.distlock.testsupport.TestDatabase;

/**
 * The lock repository contract on MariaDB, on a lock table that Flyway created with the library's migration.
 */
class FlywayMariaDbLockRepositoryTests extends MigratedLockRepositoryContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }

    @Override
    protected void migrate(LockTableName table, String fencingTable) throws Exception {
        SchemaMigrations.flyway(database(), table, fencingTable);
    }
}
