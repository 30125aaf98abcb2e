package io.distlock.core;

import io.distlock.testsupport.TestDatabase;

/**
 * Once-per-slot runs on PostgreSQL.
 */
class PostgreSqlSlotTests extends SlotContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
