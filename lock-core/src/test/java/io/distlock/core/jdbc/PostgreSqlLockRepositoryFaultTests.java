package io.distlock.core.jdbc;

import io.distlock.core.testsupport.TestDatabase;
import org.jspecify.annotations.Nullable;

/**
 * The lock repository's fault contract on PostgreSQL.
 */
class PostgreSqlLockRepositoryFaultTests extends LockRepositoryFaultContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }

    @Override
    protected @Nullable String lockTableStatement(LockTableName table) {
        return "LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE";
    }

    @Override
    protected boolean clockMovesWithinAStatement() {
        return true;
    }

    @Override
    protected boolean decidesUnderTheRowLock() {
        return true;
    }
}
