package io.distlock.core;

import io.distlock.testsupport.TestDatabase;

/**
 * The watchdog beside a stuck row on PostgreSQL.
 */
class PostgreSqlStuckRowWatchdogTests extends StuckRowWatchdogContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
