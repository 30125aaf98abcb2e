package io.distlock.spring.autoconfigure;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.distlock.core.LockObserver;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockTableName;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.spring.metrics.DistributedLockMetricsAutoConfiguration;
import io.distlock.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scheduled clean-up of expired lock rows ({@code distributed-lock.cleanup.*}) on real databases: what it
 * deletes and keeps, that two replicas never run it at once, its counter, its failures, and its lifecycle.
 */
@ExtendWith(OutputCaptureExtension.class)
class ExpiredLockCleanupTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class,
                DistributedLockMetricsAutoConfiguration.class))
        .withPropertyValues("distributed-lock.jdbc.initialize-schema=never");

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void deletesRowsExpiredLongerThanTheRetentionAndKeepsLiveAndRecentlyExpiredOnes(TestDatabase database) {
        LockTableName table = database.createLockTable();
        try {
            JdbcLockRepository repository = JdbcLockRepository.builder(database.dataSource())
                .tableName(table.value()).build();
            repository.acquire("old", "owner:old", Duration.ofSeconds(30)).orElseThrow();
            repository.acquire("recent", "owner:recent", Duration.ofSeconds(30)).orElseThrow();
            repository.acquire("live", "owner:live", Duration.ofMinutes(5)).orElseThrow();
            database.execute("UPDATE " + table + " SET acquired_at = acquired_at - INTERVAL '3' HOUR, expires_at = "
                    + "expires_at - INTERVAL '2' HOUR WHERE resource = 'old'");
            database.execute("UPDATE " + table + " SET expires_at = acquired_at - INTERVAL '30' MINUTE WHERE "
                    + "resource = 'recent'");
            runner.withBean(DataSource.class, () -> new DelegatingDataSource(database.dataSource()))
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withPropertyValues("distributed-lock.table-name=" + table, "distributed-lock.cleanup.interval=100ms")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    await().atMost(Duration.ofSeconds(10)).until(() -> rows(database, table, "old") == 0);
                    assertThat(rows(database, table, "recent")).as("expired 30 minutes ago, within 1h").isOne();
                    assertThat(rows(database, table, "live")).isOne();
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(registry
                        .get("distributed.lock.cleanup.deleted").counter().count()).isEqualTo(1.0));
                });
        }
        finally {
            database.dropLockTable(table);
        }
    }

    @Test
    void counterIsRegisteredAtZeroAtStartUpAndCountsDeletedRows() {
        LockTableName table = TestDatabase.H2.createLockTable();
        try {
            runner.withBean(DataSource.class, () -> new DelegatingDataSource(TestDatabase.H2.dataSource()))
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withPropertyValues("distributed-lock.table-name=" + table, "distributed-lock.cleanup.retention=1m")
                .run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get("distributed.lock.cleanup.deleted").counter().count()).isZero();
                    JdbcLockRepository repository = JdbcLockRepository.builder(TestDatabase.H2.dataSource())
                        .tableName(table.value()).build();
                    for (String resource : new String[] { "a", "b", "c" }) {
                        repository.acquire(resource, "owner:" + resource, Duration.ofSeconds(1)).orElseThrow();
                    }
                    TestDatabase.H2.execute("UPDATE " + table + " SET expires_at = expires_at - INTERVAL '2' MINUTE");
                    ExpiredLockCleanup cleanup = context.getBean(ExpiredLockCleanup.class);
                    assertThat(cleanup.cleanUp()).isEqualTo(3);
                    assertThat(cleanup.cleanUp()).isZero();
                    assertThat(registry.get("distributed.lock.cleanup.deleted").counter().count()).isEqualTo(3.0);
                });
        }
        finally {
            TestDatabase.H2.dropLockTable(table);
        }
    }

    @Test
    void twoReplicasOnOneDatabaseNeverCleanUpAtTheSameTime() {
        LockTableName table = TestDatabase.POSTGRESQL.createLockTable();
        DeleteGate gate = new DeleteGate();
        try {
            ApplicationContextRunner replica = runner
                .withPropertyValues("distributed-lock.table-name=" + table, "distributed-lock.cleanup.interval=50ms")
                .withBean(DataSource.class, () -> gate.wrap(TestDatabase.POSTGRESQL.dataSource()))
                .withBean(LockObserver.class, () -> gate);
            replica.run(first -> replica.run(second -> {
                assertThat(first).hasNotFailed();
                assertThat(second).hasNotFailed();
                await().atMost(Duration.ofSeconds(20)).until(() -> gate.deletes.get() >= 6);
            }));
            assertThat(gate.skipped.getCount()).as("a replica found the clean-up lock held and skipped").isZero();
            assertThat(gate.maxInFlight.get()).as("deletes running at once").isOne();
        }
        finally {
            TestDatabase.POSTGRESQL.dropLockTable(table);
        }
    }

    @Test
    void failureIsLoggedAtWarnAndTheScheduleGoesOn(CapturedOutput output) {
        LockTableName table = TestDatabase.H2.createLockTable();
        DeleteGate gate = new DeleteGate();
        gate.failures.set(2);
        gate.skipped.countDown();
        try {
            runner.withBean(DataSource.class, () -> gate.wrap(TestDatabase.H2.dataSource()))
                .withPropertyValues("distributed-lock.table-name=" + table, "distributed-lock.cleanup.interval=50ms")
                .run(context -> {
                    await().atMost(Duration.ofSeconds(10)).until(() -> gate.deletes.get() >= 3);
                    assertThat(output).contains("WARN").contains("Could not delete expired lock rows; trying again "
                            + "in PT0.05S").contains("delete refused by the test");
                });
        }
        finally {
            TestDatabase.H2.dropLockTable(table);
        }
    }

    @Test
    void stopsWithTheContext() {
        LockTableName table = TestDatabase.H2.createLockTable();
        try {
            ConfigurableApplicationContext[] started = new ConfigurableApplicationContext[1];
            String[] prefix = new String[1];
            runner.withBean(DataSource.class, () -> new DelegatingDataSource(TestDatabase.H2.dataSource()))
                .withPropertyValues("distributed-lock.table-name=" + table, "distributed-lock.cleanup.interval=50ms")
                .run(context -> {
                    ExpiredLockCleanup cleanup = context.getBean(ExpiredLockCleanup.class);
                    assertThat(cleanup.isRunning()).isTrue();
                    prefix[0] = cleanup.threadNamePrefix;
                    await().atMost(Duration.ofSeconds(5)).until(() -> cleanupThreads(prefix[0]) > 0);
                    started[0] = context.getSourceApplicationContext();
                });
            assertThat(started[0].isActive()).isFalse();
            await().atMost(Duration.ofSeconds(5)).until(() -> cleanupThreads(prefix[0]) == 0);
        }
        finally {
            TestDatabase.H2.dropLockTable(table);
        }
    }

    @Test
    void isOffWhenDisabled() {
        runner.withBean(DataSource.class, () -> new DelegatingDataSource(TestDatabase.H2.dataSource()))
            .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withPropertyValues("distributed-lock.cleanup.enabled=false", "distributed-lock.jdbc.initialize-schema=always")
            .run(context -> {
                assertThat(context).hasNotFailed().doesNotHaveBean(ExpiredLockCleanup.class)
                    .doesNotHaveBean(LockCleanupListener.class);
                assertThat(context.getBean(MeterRegistry.class).find("distributed.lock.cleanup.deleted").counter())
                    .isNull();
            });
    }

    @Test
    void retentionBelowTheMinimumAndNonPositiveIntervalFailTheStart() {
        ApplicationContextRunner h2 = runner
            .withBean(DataSource.class, () -> new DelegatingDataSource(TestDatabase.H2.dataSource()))
            .withPropertyValues("distributed-lock.jdbc.initialize-schema=always");
        h2.withPropertyValues("distributed-lock.cleanup.retention=30s").run(context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                .hasMessage("distributed-lock.cleanup.retention must be at least PT1M, got PT30S");
        });
        h2.withPropertyValues("distributed-lock.cleanup.interval=0s").run(context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                .hasMessage("distributed-lock.cleanup.interval must be at least PT0.001S, got PT0S");
        });
    }

    private static int rows(TestDatabase database, LockTableName table, String resource) {
        Integer count = new JdbcTemplate(database.dataSource())
            .queryForObject("SELECT COUNT(*) FROM " + table + " WHERE resource = ?", Integer.class, resource);
        return count != null ? count : -1;
    }

    private static long cleanupThreads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(thread -> thread.getName().startsWith(prefix) && thread.isAlive())
            .count();
    }

    /**
     * Watches the clean-up's delete statements on every replica it wraps: counts them and how many run at once,
     * holds the first one until a replica has found the clean-up lock held, and refuses as many as it is told to.
     */
    static final class DeleteGate implements LockObserver {

        final AtomicInteger deletes = new AtomicInteger();

        final AtomicInteger inFlight = new AtomicInteger();

        final AtomicInteger maxInFlight = new AtomicInteger();

        final AtomicInteger failures = new AtomicInteger();

        final CountDownLatch skipped = new CountDownLatch(1);

        @Override
        public void held(String name, String resource, Duration elapsed) {
            if (resource.equals(ExpiredLockCleanup.LOCK)) {
                skipped.countDown();
            }
        }

        DataSource wrap(DataSource target) {
            return new DelegatingDataSource(target) {

                @Override
                public Connection getConnection() throws SQLException {
                    Connection connection = super.getConnection();
                    return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
                            new Class<?>[] { Connection.class }, (proxy, method, args) -> {
                                Object result = invoke(connection, method, args);
                                if (method.getName().equals("prepareStatement")
                                        && ((String) args[0]).startsWith("DELETE")) {
                                    return gated((PreparedStatement) result);
                                }
                                return result;
                            });
                }
            };
        }

        private PreparedStatement gated(PreparedStatement statement) {
            return (PreparedStatement) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] { PreparedStatement.class }, (proxy, method, args) -> {
                        if (!method.getName().equals("executeUpdate")) {
                            return invoke(statement, method, args);
                        }
                        deletes.incrementAndGet();
                        if (failures.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
                            throw new SQLException("delete refused by the test", "08006");
                        }
                        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                        try {
                            skipped.await(10, TimeUnit.SECONDS);
                            return invoke(statement, method, args);
                        }
                        finally {
                            inFlight.decrementAndGet();
                        }
                    });
        }

        private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
            try {
                return method.invoke(target, args);
            }
            catch (InvocationTargetException ex) {
                throw ex.getCause();
            }
        }
    }
}
