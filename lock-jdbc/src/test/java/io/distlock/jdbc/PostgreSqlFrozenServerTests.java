package io.distlock.jdbc;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.SchemaVerification;
import io.distlock.core.SlotStore;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.jdbc.dialect.LockDialects;
import io.distlock.testsupport.PrivatePostgres;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.support.EncodedResource;
import org.springframework.jdbc.datasource.init.ScriptUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A frozen PostgreSQL server of the test's own: its postmaster and every backend stopped with {@code SIGSTOP}, what a
 * hung host or a network path that swallows packets looks like to a client — the TCP connections stay open, the
 * kernel accepts new ones, and nothing answers, neither a statement nor its cancel request. Every lock operation
 * still ends within the library's own bound, measured here through HikariCP pools: the wait for a connection (at most
 * the statement timeout) plus one statement against a server that does not answer
 * ({@link JdbcLockRepository#networkTimeout}); HikariCP's own check of a connection that idled, in the caller's thread,
 * is bounded by its {@code validationTimeout}, kept here within the statement timeout. A lease kept alive is told lost
 * within one renewal interval of running out, and an acquire whose answer never came is given back once the server
 * answers again. Runs only with {@code -Ppg-crash} (tag {@code pg-crash}).
 */
@Tag("pg-crash")
class PostgreSqlFrozenServerTests {

    private static final LockDialect DIALECT = LockDialects.byName("postgresql");

    private static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(1);

    /** How long an operation may take: the wait for a connection, then one statement nobody answers. */
    private static final Duration BOUND = STATEMENT_TIMEOUT
            .plus(JdbcLockRepository.networkTimeout(STATEMENT_TIMEOUT));

    /** Scheduling on a busy machine. */
    private static final Duration MARGIN = Duration.ofMillis(700);

    /** How long the test waits for an operation that does not end, before it calls it hung. */
    private static final Duration CAP = Duration.ofSeconds(20);

    private static PrivatePostgres cluster;

    private static HikariDataSource pool;

    private final ExecutorService callers = Executors.newCachedThreadPool();

    @BeforeAll
    static void startCluster() throws Exception {
        Path bin = PrivatePostgres.binaries();
        if (bin == null) {
            String problem = "no PostgreSQL initdb found (DISTLOCK_TEST_POSTGRESQL_BIN, /usr/lib/postgresql/*/bin, "
                    + "PATH) for a private cluster";
            if (TestDatabase.POSTGRESQL.required()) {
                Assertions.fail(problem + " but DISTLOCK_TEST_REQUIRE demands PostgreSQL");
            }
            Assumptions.abort(problem + ": skipped");
        }
        cluster = PrivatePostgres.start(bin);
        // HikariCP's own defaults otherwise: a 30 s connectionTimeout, a 5 s validationTimeout.
        pool = cluster.openPool(8);
        pool.setConnectionTimeout(30_000);
        try (Connection connection = pool.getConnection()) {
            ByteArrayResource script = new ByteArrayResource(
                    LockSchema.script(DIALECT, LockTableName.DEFAULT).getBytes(StandardCharsets.UTF_8));
            ScriptUtils.executeSqlScript(connection, new EncodedResource(script, StandardCharsets.UTF_8));
        }
    }

    @AfterAll
    static void stopCluster() {
        if (pool != null) {
            pool.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyLockOperationOnAFrozenServerEndsWithinTheNetworkTimeout() throws Exception {
        // Connections used a moment ago: HikariCP hands them out unchecked, and each operation's statement is sent.
        List<Measured> measured = operationsWhileFrozen(pool, PostgreSqlFrozenServerTests::useEveryConnection);
        assertThat(measured).allSatisfy(m -> assertThat(m.took()).as("%s (%s)", m.name(), m.outcome())
                .isLessThan(BOUND.plus(MARGIN)));
    }

    @Test
    void everyLockOperationOnAFrozenServerThatWaitsForAConnectionEndsWithinTheBound() throws Exception {
        // Connections idle for longer than HikariCP's 500 ms: it checks each before handing it out, in the caller's
        // thread, for up to its validationTimeout, which the library cannot shorten; kept within the statement
        // timeout, the wait for a connection stays within the bound.
        try (HikariDataSource checked = cluster.openPool(8)) {
            checked.setValidationTimeout(STATEMENT_TIMEOUT.toMillis());
            useEveryConnection(checked);
            List<Measured> measured = operationsWhileFrozen(checked, PostgreSqlFrozenServerTests::idle);
            assertThat(measured).allSatisfy(m -> assertThat(m.took()).as("%s (%s)", m.name(), m.outcome())
                    .isLessThan(BOUND.plus(MARGIN)));
        }
    }

    private List<Measured> operationsWhileFrozen(HikariDataSource dataSource, Preparation beforeTheFreeze)
            throws Exception {
        JdbcLockRepository repository = repository(dataSource);
        try (LockManager manager = LockManager.builder(repository).build()) {
            Lease renewed = manager.tryAcquire("frozen:renew:" + owner(), Duration.ofSeconds(30)).orElseThrow();
            Lease released = manager.tryAcquire("frozen:release:" + owner(), Duration.ofSeconds(30)).orElseThrow();
            Map<String, Callable<?>> operations = new LinkedHashMap<>();
            operations.put("tryAcquire", () -> manager.tryAcquire("frozen:acquire:" + owner(), Duration.ofSeconds(5)));
            operations.put("renew", () -> renewed.renew(Duration.ofSeconds(30)));
            operations.put("release", released::release);
            operations.put("find", () -> repository.find(renewed.resource()));
            operations.put("findAll", repository::findAll);
            operations.put("slot claim", () -> SlotStore.of(repository).claimSlot("frozen-job", owner(),
                    Instant.now().minusSeconds(1), false));
            operations.put("schema check", () -> {
                repository.capability(SchemaVerification.class).ifPresent(SchemaVerification::verifySchema);
                return null;
            });
            beforeTheFreeze.prepare(dataSource);
            List<Measured> measured;
            try (PrivatePostgres.Frozen frozen = cluster.freeze()) {
                measured = measure(operations);
            }
            measured.forEach(m -> System.out.printf("FROZEN %-12s %5d ms  %s%n", m.name(), m.took().toMillis(),
                    m.outcome()));
            return measured;
        }
    }

    @Test
    void aLeaseKeptAliveOnAFrozenServerIsToldLostWithinOneRenewalIntervalOfRunningOut() throws Exception {
        Duration ttl = Duration.ofSeconds(3);
        JdbcLockRepository repository = repository(pool);
        try (LockManager manager = LockManager.builder(repository).build()) {
            AtomicReference<Instant> told = new AtomicReference<>();
            Lease lease = manager.tryAcquire("frozen:kept", ttl).orElseThrow()
                    .onLost((lost, reason) -> told.compareAndSet(null, Instant.now())).keepAlive(Duration.ofMinutes(1));
            Instant ranOut;
            try (PrivatePostgres.Frozen frozen = cluster.freeze()) {
                await().atMost(ttl.multipliedBy(3)).until(() -> told.get() != null);
                ranOut = lease.expiresAt();
            }
            Duration interval = ttl.dividedBy(3);
            Duration late = Duration.between(ranOut, told.get());
            System.out.printf("FROZEN lease told lost %d ms after running out (renewal interval %d ms)%n",
                    late.toMillis(), interval.toMillis());
            assertThat(told.get()).as("told of the loss").isBefore(ranOut.plus(interval).plus(MARGIN));
        }
    }

    @Test
    void anAcquireWhoseAnswerNeverCameIsGivenBackOnceTheServerAnswersAgain() throws Exception {
        Duration ttl = Duration.ofMinutes(2);
        JdbcLockRepository repository = repository(pool);
        try (LockManager manager = LockManager.builder(repository).build()) {
            useEveryConnection(pool);
            Measured acquire;
            try (PrivatePostgres.Frozen frozen = cluster.freeze()) {
                acquire = measure(Map.of("tryAcquire", () -> manager.tryAcquire("frozen:ghost", ttl))).get(0);
            }
            System.out.printf("FROZEN tryAcquire of the ghost: %d ms, %s%n", acquire.took().toMillis(),
                    acquire.outcome());
            assertThat(acquire.outcome()).as("not acquired").doesNotContain("Lease[");
            // The server now runs the acquire it received before it froze, and commits a row whose owner nobody
            // knows: the library gives it back, long before its TTL.
            long start = System.nanoTime();
            Optional<Lease> next = await().atMost(ttl.dividedBy(4)).pollInterval(Duration.ofMillis(200))
                    .until(() -> manager.tryAcquire("frozen:ghost", ttl), Optional::isPresent);
            System.out.printf("FROZEN ghost row given back %d ms after the thaw%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            next.orElseThrow().release();
        }
    }

    private List<Measured> measure(Map<String, Callable<?>> operations) throws InterruptedException {
        Map<String, Future<Measured>> running = new LinkedHashMap<>();
        operations.forEach((name, operation) -> running.put(name, callers.submit(() -> {
            long start = System.nanoTime();
            String outcome;
            try {
                outcome = String.valueOf(operation.call());
            }
            catch (Exception ex) {
                outcome = ex.getClass().getSimpleName() + ": " + ex.getMessage();
            }
            return new Measured(name, Duration.ofNanos(System.nanoTime() - start), outcome);
        })));
        long deadline = System.nanoTime() + CAP.toNanos();
        List<Measured> measured = new ArrayList<>();
        for (Map.Entry<String, Future<Measured>> entry : running.entrySet()) {
            try {
                measured.add(entry.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            }
            catch (TimeoutException ex) {
                measured.add(new Measured(entry.getKey(), CAP, "still running after " + CAP));
            }
            catch (java.util.concurrent.ExecutionException ex) {
                throw new IllegalStateException(ex.getCause());
            }
        }
        return measured;
    }

    /** Lets the pool's connections idle long enough that HikariCP checks them before it hands them out. */
    private static void idle(HikariDataSource dataSource) {
        CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(600, TimeUnit.MILLISECONDS)).join();
    }

    /** Opens every connection of the pool and runs a query on each, so that none has idled a moment later. */
    private static void useEveryConnection(HikariDataSource dataSource) throws SQLException {
        List<Connection> connections = new ArrayList<>();
        try {
            for (int i = 0; i < dataSource.getMaximumPoolSize(); i++) {
                Connection connection = dataSource.getConnection();
                connections.add(connection);
                try (var statement = connection.createStatement()) {
                    statement.execute("SELECT 1");
                }
            }
        }
        finally {
            for (Connection connection : connections) {
                connection.close();
            }
        }
    }

    /** What is done to the pool just before the server freezes. */
    @FunctionalInterface
    private interface Preparation {

        void prepare(HikariDataSource dataSource) throws Exception;
    }

    private static JdbcLockRepository repository(DataSource dataSource) {
        return JdbcLockRepository.builder(dataSource).dialect(DIALECT).statementTimeout(STATEMENT_TIMEOUT).build();
    }

    private static String owner() {
        return "owner-" + UUID.randomUUID();
    }

    private record Measured(String name, Duration took, String outcome) {
    }
}
