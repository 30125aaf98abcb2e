package io.distlock.core;

import io.distlock.testsupport.TestDatabase;

/**
 * Once-per-slot runs on MariaDB.
 */
class MariaDbSlotTests extends SlotContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
