package io.distlock.jdbc;

import io.distlock.core.TimeSource;
import io.distlock.testsupport.TestDatabase;

/**
 * The lock repository contract on PostgreSQL with the application's clock.
 */
class PostgreSqlApplicationTimeLockRepositoryTests extends JdbcLockRepositoryContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }

    @Override
    protected TimeSource timeSource() {
        return TimeSource.APPLICATION;
    }
}
