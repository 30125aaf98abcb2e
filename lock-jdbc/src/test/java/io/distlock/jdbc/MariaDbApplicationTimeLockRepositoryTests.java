package io.distlock.jdbc;

import io.distlock.core.TimeSource;
import io.distlock.testsupport.TestDatabase;

/**
 * The lock repository contract on MariaDb with the application's clock.
 */
class MariaDbApplicationTimeLockRepositoryTests extends JdbcLockRepositoryContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }

    @Override
    protected TimeSource timeSource() {
        return TimeSource.APPLICATION;
    }
}
