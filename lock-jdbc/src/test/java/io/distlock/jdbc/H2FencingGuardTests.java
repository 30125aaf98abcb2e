package io.distlock.jdbc;

import io.distlock.testsupport.TestDatabase;

/**
 * The fencing guard on H2.
 */
class H2FencingGuardTests extends FencingGuardContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.H2;
    }
}
