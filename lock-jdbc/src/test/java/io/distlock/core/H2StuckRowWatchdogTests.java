package io.distlock.core;

import io.distlock.testsupport.TestDatabase;

/**
 * The watchdog beside a stuck row on H2.
 */
class H2StuckRowWatchdogTests extends StuckRowWatchdogContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.H2;
    }
}
