package io.distlock.core;

import io.distlock.testsupport.TestDatabase;

/**
 * Once-per-slot runs on H2.
 */
class H2SlotTests extends SlotContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.H2;
    }
}
