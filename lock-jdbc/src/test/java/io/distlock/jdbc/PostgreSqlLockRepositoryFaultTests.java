package io.distlock.jdbc;

import java.util.List;

import io.distlock.testsupport.TestDatabase;
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

    @Override
    protected WrongTable wronglyTypedTable(String table) {
        return new WrongTable("""
                CREATE SEQUENCE %1$s_token_seq;
                CREATE TABLE %1$s (
                    resource    VARCHAR(255) NOT NULL PRIMARY KEY,
                    owner       VARCHAR(255) NOT NULL,
                    token       INTEGER      NOT NULL,
                    acquired_at TIMESTAMP(6) NOT NULL,
                    expires_at  TIMESTAMP(6) NOT NULL
                )""".formatted(table), List.of("acquired_at is 'timestamp(6) without time zone', expected timestamp "
                + "with time zone", "expires_at is 'timestamp(6) without time zone'", "token is 'integer', expected bigint"));
    }
}
