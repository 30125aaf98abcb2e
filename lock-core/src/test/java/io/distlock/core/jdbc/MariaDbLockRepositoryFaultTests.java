package io.distlock.core.jdbc;

import io.distlock.core.testsupport.TestDatabase;
import org.jspecify.annotations.Nullable;

/**
 * The lock repository's fault contract on MariaDB.
 */
class MariaDbLockRepositoryFaultTests extends LockRepositoryFaultContractTests {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }

    @Override
    protected @Nullable String lockTableStatement(LockTableName table) {
        return "LOCK TABLES " + table + " WRITE";
    }

    @Override
    protected boolean clockMovesWithinAStatement() {
        return true;
    }

    @Override
    protected boolean decidesUnderTheRowLock() {
        return false;
    }
}
