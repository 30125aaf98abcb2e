package io.distlock.jdbc;

import io.distlock.testsupport.TestDatabase;

/**
 * The lock repository contract on MariaDb with database time.
 */
class MariaDbLockRepositoryTests extends JdbcLockRepositoryContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
