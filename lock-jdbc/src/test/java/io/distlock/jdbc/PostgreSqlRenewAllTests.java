package io.distlock.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.core.LeaseKey;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.jdbc.datasource.DelegatingDataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On PostgreSQL a batch renewal binds its leases as two arrays: one statement of three parameters per batch,
 * whatever its size, instead of two parameters per lease, which PostgreSQL parses and plans about three times slower
 * for a thousand leases.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgreSqlRenewAllTests {

    private final TestDatabase database = TestDatabase.POSTGRESQL;

    private LockTableName table;

    @BeforeAll
    void createTable() {
        database.assumeAvailable();
        table = database.createLockTable();
    }

    @AfterAll
    void dropTable() {
        if (table != null) {
            database.dropLockTable(table);
        }
    }

    @Test
    void everyBatchOfARenewalIsOneStatementBindingTheTtlAndTwoArrays() {
        int batch = database.dialect().maxRenewBatch();
        String owner = "owner-" + UUID.randomUUID();
        List<LeaseKey> keys = new ArrayList<>();
        JdbcLockRepository plain = JdbcLockRepository.builder(database.dataSource()).tableName(table.value())
                .dialect(database.dialect()).build();
        for (int i = 0; i < batch + 1; i++) {
            String resource = "job:" + UUID.randomUUID();
            plain.acquire(resource, owner, Duration.ofSeconds(30)).orElseThrow();
            keys.add(new LeaseKey(resource, owner));
        }
        ParameterCounting counting = new ParameterCounting(database.dataSource());
        JdbcLockRepository repository = JdbcLockRepository.builder(counting).tableName(table.value())
                .dialect(database.dialect()).build();
        assertThat(repository.renewAll(keys, Duration.ofMinutes(5))).hasSize(batch + 1);
        assertThat(counting.parametersByStatement).map(AtomicInteger::get).containsExactly(3, 3);
    }

    /** Counts the parameters bound to each prepared statement. */
    private static final class ParameterCounting extends DelegatingDataSource {

        private final List<AtomicInteger> parametersByStatement = new CopyOnWriteArrayList<>();

        ParameterCounting(javax.sql.DataSource target) {
            super(target);
        }

        @Override
        public Connection getConnection() throws SQLException {
            Connection connection = obtainTargetDataSource().getConnection();
            return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                    (proxy, method, args) -> {
                        Object result = invoke(connection, method, args);
                        return method.getName().equals("prepareStatement") ? counted((PreparedStatement) result)
                                : result;
                    });
        }

        private PreparedStatement counted(PreparedStatement statement) {
            AtomicInteger parameters = new AtomicInteger();
            parametersByStatement.add(parameters);
            return (PreparedStatement) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                        if (method.getName().startsWith("set") && args != null && args.length >= 2
                                && args[0] instanceof Integer) {
                            parameters.incrementAndGet();
                        }
                        return invoke(statement, method, args);
                    });
        }

        private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args)
                throws Throwable {
            try {
                return method.invoke(target, args);
            }
            catch (InvocationTargetException ex) {
                throw ex.getCause();
            }
        }
    }
}
