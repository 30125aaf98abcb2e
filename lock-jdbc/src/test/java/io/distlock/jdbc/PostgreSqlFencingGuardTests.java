package io.distlock.jdbc;

import io.distlock.testsupport.TestDatabase;

/**
 * The fencing guard on PostgreSQL.
 */
class PostgreSqlFencingGuardTests extends FencingGuardContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
