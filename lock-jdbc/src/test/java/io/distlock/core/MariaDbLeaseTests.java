package io.distlock.core;

import io.distlock.testsupport.TestDatabase;

/**
 * Leases, watchdog and manager on MariaDb.
 */
class MariaDbLeaseTests extends JdbcLeaseContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
