package io.distlock.spring.web;

import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The HTTP lock API on PostgreSQL, with a lock table of its own created by the starter.
 */
class PostgreSqlLockHttpTests extends LockHttpContractTests {

    @BeforeAll
    static void requirePostgreSql() {
        TestDatabase.POSTGRESQL.assumeAvailable();
    }

    @DynamicPropertySource
    static void postgresql(DynamicPropertyRegistry registry) {
        TestDatabase database = TestDatabase.POSTGRESQL;
        registry.add("spring.datasource.url", database::url);
        registry.add("spring.datasource.username", database::user);
        registry.add("spring.datasource.password", database::password);
        registry.add("distributed-lock.table-name", () -> "http_contract_locks");
        registry.add("distributed-lock.jdbc.initialize-schema", () -> "always");
    }
}
