package io.distlock.spring.aop;

import io.distlock.testsupport.TestDatabase;

/**
 * The {@code @DistributedLock} contract on PostgreSQL.
 */
class PostgreSqlDistributedLockContractTests extends DistributedLockContractTests {

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
