package io.distlock.jdbc;

import io.distlock.testsupport.TestDatabase;

/**
 * The lock repository contract on PostgreSQL with database time.
 */
class PostgreSqlLockRepositoryTests extends JdbcLockRepositoryContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
