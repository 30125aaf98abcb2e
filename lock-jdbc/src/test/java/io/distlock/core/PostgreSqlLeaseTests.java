package io.distlock.core;

import io.distlock.testsupport.TestDatabase;

/**
 * Leases, watchdog and manager on PostgreSQL.
 */
class PostgreSqlLeaseTests extends JdbcLeaseContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
