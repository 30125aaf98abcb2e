package io.distlock.jdbc;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.core.LockRecord;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.jdbc.dialect.LockDialects;
import io.distlock.testsupport.PrivatePostgres;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.support.EncodedResource;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.jdbc.datasource.init.ScriptUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A private PostgreSQL primary with a streaming standby that the server names synchronous, whose other sessions
 * commit without waiting for it ({@code synchronous_commit = local}), so that only the repository's setting
 * ({@link JdbcReplication#SYNCHRONOUS}) makes the lock statements wait. The primary's walsender is frozen
 * ({@code SIGSTOP}) while acquisitions and a renewal are in flight; each must end within the statement timeout
 * without handing out a lease, although PostgreSQL commits them locally when the timeout cancels their wait. Then the
 * primary is killed and the standby promoted: it holds every lease handed out, none of the refused ones, and draws
 * larger tokens. Runs only with {@code -Ppg-failover} (tag {@code pg-failover}).
 */
@Tag("pg-failover")
class PostgreSqlFailoverTests {

    private static final LockDialect DIALECT = LockDialects.byName("postgresql");

    private static final LockTableName TABLE = LockTableName.DEFAULT;

    private static final Duration TIMEOUT = JdbcLockRepository.MIN_STATEMENT_TIMEOUT;

    /** What may pass after the statement timeout: the canceller's poll, the give-back, a loaded machine. */
    private static final Duration SLACK = Duration.ofMillis(1500);

    private static final Duration TTL = Duration.ofSeconds(30);

    private static final int IN_FLIGHT_ACQUISITIONS = 3;

    @Test
    void acquisitionsAndRenewalsWhoseCommitTheStandbyNeverConfirmedAreNotHandedOutAndTheFailoverKeepsEveryLease()
            throws Exception {
        Path bin = binaries();
        try (PrivatePostgres primary = PrivatePostgres.start(bin); PrivatePostgres standby = primary.startStandby()) {
            try (HikariDataSource pool = primary.openPool(IN_FLIGHT_ACQUISITIONS + 4)) {
                execute(pool, "ALTER SYSTEM SET synchronous_standby_names = '*'",
                        "ALTER SYSTEM SET synchronous_commit = 'local'", "SELECT pg_reload_conf()");
                await().atMost(Duration.ofSeconds(30)).until(() -> "sync".equals(
                        queryText(pool, "SELECT string_agg(sync_state, ',') FROM pg_stat_replication")));
                createLockTable(pool);
                JdbcLockRepository synchronous = repository(pool, JdbcReplication.SYNCHRONOUS);
                JdbcLockRepository asynchronous = repository(pool, JdbcReplication.ASYNC);
                synchronous.verifySchema();
                ReplicationStatus status = synchronous.replicationStatus();
                assertThat(status.acquisitionsWaitForStandby()).as(status.summary()).isTrue();
                assertThat(status.synchronousStandbys()).isEqualTo(1);
                assertThat(asynchronous.replicationStatus().acquisitionsWaitForStandby()).isFalse();
                assertThat(asynchronous.replicationStatus().isWarning()).isTrue();

                LockRecord held = synchronous.acquire("failover:held", owner(), TTL).orElseThrow();
                long walSender = Long.parseLong(queryText(pool, "SELECT pid FROM pg_stat_replication"));
                PrivatePostgres.signal("STOP", walSender);

                List<Outcome> outcomes = inFlight(synchronous, held);
                for (Outcome outcome : outcomes) {
                    assertThat(outcome.elapsed()).as(outcome.what()).isLessThan(TIMEOUT.plus(SLACK));
                    assertThat(outcome.elapsed()).as(outcome.what() + ": waited for the standby")
                            .isGreaterThanOrEqualTo(TIMEOUT.minusMillis(100));
                }
                assertThat(outcomes).filteredOn(o -> o.what().startsWith("acquire"))
                        .hasSize(IN_FLIGHT_ACQUISITIONS)
                        .allSatisfy(o -> assertThat(o.acquired()).as(o.what()).isEmpty());
                Outcome renewal = outcomes.stream().filter(o -> o.what().startsWith("renew")).findFirst()
                        .orElseThrow();
                assertThat(renewal.failure()).as("the renewal").isInstanceOf(TransientDataAccessResourceException.class)
                        .hasMessageContaining("not replicated");
                for (int i = 0; i < IN_FLIGHT_ACQUISITIONS; i++) {
                    assertThat(synchronous.find("failover:new:" + i)).as("given back on the primary").isEmpty();
                }
                // The library's setting, not the server's: the asynchronous repository hands out a lease the standby
                // never gets.
                LockRecord unreplicated = asynchronous.acquire("failover:async", owner(), TTL).orElseThrow();

                primary.kill();
                standby.promote();
                try (HikariDataSource promoted = standby.openPool(3)) {
                    JdbcLockRepository after = repository(promoted, JdbcReplication.ASYNC);
                    assertThat(after.find("failover:held")).as("the lease handed out before the freeze")
                            .contains(held);
                    assertThat(after.acquire("failover:held", owner(), TTL)).as("another owner, while it lasts")
                            .isEmpty();
                    for (int i = 0; i < IN_FLIGHT_ACQUISITIONS; i++) {
                        assertThat(after.find("failover:new:" + i)).isEmpty();
                    }
                    assertThat(after.find("failover:async")).as("the asynchronous lease, lost").isEmpty();
                    LockRecord next = after.acquire("failover:next", owner(), TTL).orElseThrow();
                    assertThat(next.token()).isGreaterThan(held.token());
                    System.out.printf("FAILOVER synchronous: %d acquisitions and a renewal in flight refused in "
                            + "%s; lease %d kept; asynchronous lease %d lost; next token %d%n",
                            IN_FLIGHT_ACQUISITIONS, outcomes.stream().map(o -> o.elapsed().toMillis() + " ms")
                                    .toList(), held.token(), unreplicated.token(), next.token());
                }
            }
        }
    }

    @Test
    void aStandbyIsRefusedAtStartUpNamingThePrimaryToConnectTo() throws Exception {
        Path bin = binaries();
        try (PrivatePostgres primary = PrivatePostgres.start(bin)) {
            try (HikariDataSource pool = primary.openPool(2)) {
                createLockTable(pool);
            }
            try (PrivatePostgres standby = primary.startStandby(); HikariDataSource pool = standby.openPool(2)) {
                JdbcLockRepository repository = repository(pool, JdbcReplication.ASYNC);
                assertThatThrownBy(repository::verifySchema).isInstanceOf(LockReplicationException.class)
                        .hasMessageContaining("standby (pg_is_in_recovery())")
                        .hasMessageContaining("targetServerType=primary");
                assertThatThrownBy(() -> repository.acquire("failover:standby", owner(), TTL))
                        .isInstanceOf(TransientDataAccessResourceException.class)
                        .hasMessageContaining("read-only");
            }
        }
    }

    private static List<Outcome> inFlight(JdbcLockRepository repository, LockRecord held) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(IN_FLIGHT_ACQUISITIONS + 1);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Outcome>> futures = new ArrayList<>();
            for (int i = 0; i < IN_FLIGHT_ACQUISITIONS; i++) {
                String resource = "failover:new:" + i;
                futures.add(threads.submit(timed(start, "acquire " + resource,
                        () -> repository.acquire(resource, owner(), TTL))));
            }
            futures.add(threads.submit(timed(start, "renew " + held.resource(), () -> {
                repository.renew(held.resource(), held.owner(), TTL.multipliedBy(2));
                return Optional.empty();
            })));
            start.countDown();
            List<Outcome> outcomes = new ArrayList<>();
            for (Future<Outcome> future : futures) {
                outcomes.add(future.get(TIMEOUT.plus(SLACK).multipliedBy(3).toMillis(), TimeUnit.MILLISECONDS));
            }
            return outcomes;
        }
        finally {
            threads.shutdownNow();
        }
    }

    private static Callable<Outcome> timed(CountDownLatch start, String what, Callable<Optional<LockRecord>> call) {
        return () -> {
            start.await();
            long began = System.nanoTime();
            try {
                Optional<LockRecord> acquired = call.call();
                return new Outcome(what, Duration.ofNanos(System.nanoTime() - began), acquired, null);
            }
            catch (RuntimeException ex) {
                return new Outcome(what, Duration.ofNanos(System.nanoTime() - began), Optional.empty(), ex);
            }
        };
    }

    /** How one operation in flight ended. */
    private record Outcome(String what, Duration elapsed, Optional<LockRecord> acquired, RuntimeException failure) {
    }

    private static Path binaries() {
        Path bin = PrivatePostgres.binaries();
        if (bin == null) {
            String problem = "no PostgreSQL initdb found (DISTLOCK_TEST_POSTGRESQL_BIN, /usr/lib/postgresql/*/bin, "
                    + "PATH) for a private primary and standby";
            if (TestDatabase.POSTGRESQL.required()) {
                Assertions.fail(problem + " but DISTLOCK_TEST_REQUIRE demands PostgreSQL");
            }
            Assumptions.abort(problem + ": skipped");
        }
        return bin;
    }

    private static JdbcLockRepository repository(DataSource pool, JdbcReplication replication) {
        return JdbcLockRepository.builder(pool).dialect(DIALECT).statementTimeout(TIMEOUT).replication(replication)
                .build();
    }

    private static String owner() {
        return "owner-" + UUID.randomUUID();
    }

    private static void createLockTable(DataSource pool) throws SQLException {
        try (Connection connection = pool.getConnection()) {
            ByteArrayResource script = new ByteArrayResource(
                    LockSchema.script(DIALECT, TABLE).getBytes(StandardCharsets.UTF_8));
            ScriptUtils.executeSqlScript(connection, new EncodedResource(script, StandardCharsets.UTF_8));
        }
    }

    private static void execute(DataSource pool, String... sql) throws SQLException {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            for (String each : sql) {
                statement.execute(each);
            }
        }
    }

    private static String queryText(DataSource pool, String sql) throws SQLException {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
