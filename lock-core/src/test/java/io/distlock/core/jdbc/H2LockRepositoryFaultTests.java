package io.distlock.core.jdbc;

import io.distlock.core.testsupport.TestDatabase;
import org.jspecify.annotations.Nullable;

/**
 * The lock repository's fault contract on H2.
 */
class H2LockRepositoryFaultTests extends LockRepositoryFaultContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.H2;
    }

    @Override
    protected @Nullable String lockTableStatement(LockTableName table) {
        return null;
    }

    @Override
    protected boolean clockMovesWithinAStatement() {
        return false;
    }

    @Override
    protected boolean decidesUnderTheRowLock() {
        return false;
    }
}
