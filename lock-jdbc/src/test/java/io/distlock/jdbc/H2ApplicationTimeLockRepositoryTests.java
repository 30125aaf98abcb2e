package io.distlock.jdbc;

import io.distlock.core.TimeSource;
import io.distlock.testsupport.TestDatabase;

/**
 * The lock repository contract on H2 with the application's clock.
 */
class H2ApplicationTimeLockRepositoryTests extends JdbcLockRepositoryContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.H2;
    }

    @Override
    protected TimeSource timeSource() {
        return TimeSource.APPLICATION;
    }
}
