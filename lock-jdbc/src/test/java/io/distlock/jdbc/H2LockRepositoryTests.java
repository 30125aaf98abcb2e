package io.distlock.jdbc;

import io.distlock.testsupport.TestDatabase;

/**
 * The lock repository contract on H2 with database time.
 */
class H2LockRepositoryTests extends JdbcLockRepositoryContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.H2;
    }
}
