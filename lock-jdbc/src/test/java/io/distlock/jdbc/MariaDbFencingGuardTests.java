package io.distlock.jdbc;

import io.distlock.testsupport.TestDatabase;

/**
 * The fencing guard on MariaDB.
 */
class MariaDbFencingGuardTests extends FencingGuardContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
