package io.distlock.jdbc;

import java.util.List;

import io.distlock.testsupport.TestDatabase;
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

    @Override
    protected WrongTable wronglyTypedTable(String table) {
        return new WrongTable("""
                CREATE SEQUENCE %1$s_token_seq;
                CREATE TABLE %1$s (
                    resource    VARCHAR(255) NOT NULL PRIMARY KEY,
                    owner       VARCHAR(255) NOT NULL,
                    token       BIGINT       NOT NULL,
                    acquired_at TIMESTAMP(6) NOT NULL,
                    expires_at  TIMESTAMP(6) NOT NULL
                ) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_general_ci""".formatted(table),
                List.of("resource is 'varchar(255) COLLATE utf8mb4_general_ci UNIQUE', expected varchar(255) COLLATE "
                        + "utf8mb4_nopad_bin", "owner is 'varchar(255) COLLATE utf8mb4_general_ci'",
                        "expires_at is 'timestamp(6)', expected datetime(6)", "acquired_at is 'timestamp(6)'"));
    }
}
