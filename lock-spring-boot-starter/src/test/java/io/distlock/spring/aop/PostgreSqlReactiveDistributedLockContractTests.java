package io.distlock.spring.aop;

import java.util.List;

import io.distlock.jdbc.LockTableName;
import io.distlock.testsupport.TestDatabase;

/**
 * The asynchronous {@code @DistributedLock} contract on PostgreSQL, on a lock table of its own.
 */
class PostgreSqlReactiveDistributedLockContractTests extends ReactiveDistributedLockContractTests {

    private LockTableName table;

    @Override
    List<String> storeProperties() {
        TestDatabase database = TestDatabase.POSTGRESQL;
        table = database.createLockTable();
        return List.of("spring.datasource.url=" + database.url(), "spring.datasource.username=" + database.user(),
                "spring.datasource.password=" + database.password(), "distributed-lock.table-name=" + table,
                "spring.datasource.hikari.maximum-pool-size=6",
                "distributed-lock.jdbc.initialize-schema=never");
    }

    @Override
    void cleanUp() {
        if (table != null) {
            TestDatabase.POSTGRESQL.dropLockTable(table);
        }
    }
}
