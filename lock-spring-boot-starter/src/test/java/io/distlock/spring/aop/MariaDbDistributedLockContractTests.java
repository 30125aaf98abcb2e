package io.distlock.spring.aop;

import io.distlock.testsupport.TestDatabase;

/**
 * The {@code @DistributedLock} contract on MariaDB.
 */
class MariaDbDistributedLockContractTests extends DistributedLockContractTests {

    @Override
    TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
