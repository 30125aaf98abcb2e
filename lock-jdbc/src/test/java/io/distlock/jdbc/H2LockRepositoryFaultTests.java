package io.distlock.jdbc;

import java.util.List;

import io.distlock.testsupport.TestDatabase;
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

    @Override
    protected WrongTable wronglyTypedTable(String table) {
        return new WrongTable("""
                CREATE SEQUENCE %1$s_token_seq;
                CREATE TABLE %1$s (
                    resource    VARCHAR_IGNORECASE(255) NOT NULL PRIMARY KEY,
                    owner       VARCHAR(255)            NOT NULL,
                    token       BIGINT                  NOT NULL,
                    acquired_at TIMESTAMP(6)            NOT NULL,
                    expires_at  TIMESTAMP(6)            NOT NULL
                )""".formatted(table), List.of("resource is 'VARCHAR_IGNORECASE UNIQUE'",
                "expires_at is 'TIMESTAMP(6)', expected TIMESTAMP(6) WITH TIME ZONE", "acquired_at is 'TIMESTAMP(6)'"));
    }
}
