package io.distlock.core;

import io.distlock.testsupport.TestDatabase;

/**
 * The watchdog beside a stuck row on MariaDB.
 */
class MariaDbStuckRowWatchdogTests extends StuckRowWatchdogContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
