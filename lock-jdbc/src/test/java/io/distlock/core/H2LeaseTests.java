package io.distlock.core;

import io.distlock.testsupport.TestDatabase;

/**
 * Leases, watchdog and manager on H2.
 */
class H2LeaseTests extends JdbcLeaseContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.H2;
    }
}
