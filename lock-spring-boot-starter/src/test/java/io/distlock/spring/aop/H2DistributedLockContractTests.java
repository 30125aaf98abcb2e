package io.distlock.spring.aop;

import io.distlock.testsupport.TestDatabase;

/**
 * The {@code @DistributedLock} contract on H2.
 */
class H2DistributedLockContractTests extends DistributedLockContractTests {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
