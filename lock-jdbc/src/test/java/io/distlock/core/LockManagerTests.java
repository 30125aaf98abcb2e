package io.distlock.core;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import javax.sql.DataSource;

import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockTableMissingException;
import io.distlock.jdbc.LockTableName;
import io.distlock.jdbc.dialect.LockDialects;
import io.distlock.testsupport.CountingDataSource;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The programmatic API's contract beyond the database: bad input fails before any SQL, a missing table fails at
 * build time with the script to run, an unreachable database never yields a lease, waiting honours its limit and
 * interruption, and the watchdog rides out transient database errors but not an outage longer than the lease.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LockManagerTests {

    private LockTableName table;

    private CountingDataSource counting;

    private LockManager locks;

    @BeforeAll
    void createTable() {
        table = TestDatabase.H2.createLockTable();
        counting = new CountingDataSource(TestDatabase.H2.dataSource());
        locks = LockManager.builder(repository(counting)).build();
    }

    @AfterAll
    void dropTable() {
        locks.close();
        TestDatabase.H2.dropLockTable(table);
    }

    private JdbcLockRepository repository(DataSource dataSource) {
        return JdbcLockRepository.builder(dataSource).tableName(table.value()).build();
    }

    private static String resource() {
        return "manager:" + UUID.randomUUID();
    }

    @Test
    void badResourcesFailBeforeAnySqlWithAMessageNamingTheValue() {
        counting.reset();
        assertThatIllegalArgumentException().isThrownBy(() -> locks.tryAcquire(null, Duration.ofSeconds(1)))
                .withMessage("resource must not be null");
        assertThatIllegalArgumentException().isThrownBy(() -> locks.tryAcquire("  ", Duration.ofSeconds(1)))
                .withMessage("resource must not be blank, got '  '");
        assertThatIllegalArgumentException().isThrownBy(() -> locks.tryAcquire("x".repeat(256), Duration.ofSeconds(1)))
                .withMessageStartingWith("resource must be at most 255 characters, got 256");
        assertThatIllegalArgumentException().isThrownBy(() -> locks.tryAcquire("job\n42", Duration.ofSeconds(1)))
                .withMessage("resource must not contain control characters, found U+000A at index 3 of 'job?42'");
        assertThat(counting.statements()).isZero();
    }

    @Test
    void unpairedSurrogatesAreRejectedButPairsAreNames() {
        assertThatIllegalArgumentException().isThrownBy(() -> locks.tryAcquire("job\uD800", Duration.ofSeconds(1)))
                .withMessage("resource must be valid Unicode, found an unpaired surrogate U+D800 at index 3");
        String emoji = "report:\uD83D\uDCC8:" + UUID.randomUUID();
        try (Lease lease = locks.tryAcquire(emoji, Duration.ofSeconds(10)).orElseThrow()) {
            assertThat(lease.resource()).isEqualTo(emoji);
        }
    }

    @Test
    void badTtlsFailBeforeAnySqlWithAMessageNamingTheValue() {
        counting.reset();
        assertThatIllegalArgumentException().isThrownBy(() -> locks.tryAcquire(resource(), Duration.ZERO))
                .withMessage("ttl must be at least PT0.001S, got PT0S");
        assertThatIllegalArgumentException().isThrownBy(() -> locks.tryAcquire(resource(), Duration.ofSeconds(-5)))
                .withMessage("ttl must be at least PT0.001S, got PT-5S");
        assertThatIllegalArgumentException().isThrownBy(() -> locks.tryAcquire(resource(), Duration.ofDays(400)))
                .withMessage("ttl must be at most PT24H, got PT9600H");
        assertThatIllegalArgumentException().isThrownBy(() -> locks.tryAcquire(resource(), null))
                .withMessage("ttl must not be null");
        assertThat(counting.statements()).isZero();
    }

    @Test
    void badOwnersAndTableNamesAreRejected() {
        JdbcLockRepository repository = repository(counting);
        assertThatIllegalArgumentException().isThrownBy(() -> repository.acquire(resource(), null, Duration.ofSeconds(1)))
                .withMessage("owner must not be null");
        assertThatIllegalArgumentException().isThrownBy(() -> new LockTableName("locks; DROP TABLE users"))
                .withMessageContaining("'locks; DROP TABLE users' is not a plain SQL identifier");
        assertThatIllegalArgumentException().isThrownBy(() -> LockDialects.byName("oracle"))
                .withMessageContaining("Unknown lock dialect 'oracle'").withMessageContaining("postgresql");
        assertThatThrownBy(() -> LockDialects.forProduct("MySQL", "8.0.36"))
                .hasMessageContaining("'MySQL 8.0.36' is not supported").hasMessageContaining("mariadb");
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void missingLockTableFailsTheBuildNamingTheTableAndTheScript(TestDatabase database) {
        JdbcLockRepository repository = JdbcLockRepository.builder(database.dataSource()).tableName("no_such_locks")
                .build();
        assertThatThrownBy(() -> LockManager.builder(repository).build())
                .isInstanceOf(LockTableMissingException.class)
                .hasMessageContaining("Lock table 'no_such_locks'")
                .hasMessageContaining(database.dialect().schemaLocation());
    }

    @Test
    void unreachableDatabaseThrowsAndNeverYieldsALease() {
        DriverManagerDataSource dead = new DriverManagerDataSource("jdbc:postgresql://127.0.0.1:1/test", "postgres", "");
        JdbcLockRepository repository = JdbcLockRepository.builder(dead).dialect(LockDialects.byName("postgresql"))
                .build();
        try (LockManager manager = LockManager.builder(repository).verifySchema(false).build()) {
            assertThatThrownBy(() -> manager.tryAcquire(resource(), Duration.ofSeconds(10)))
                    .isInstanceOf(DataAccessException.class);
        }
    }

    @Test
    void ownerTokensNameTheProcessAndCarryRandomBits() {
        Lease lease = locks.tryAcquire(resource(), Duration.ofSeconds(30)).orElseThrow();
        assertThat(lease.owner()).startsWith(RandomOwnerGenerator.defaultPrefix() + ":")
                .hasSizeGreaterThanOrEqualTo(RandomOwnerGenerator.defaultPrefix().length() + 1 + 22);
        assertThat(new RandomOwnerGenerator("replica-a").nextOwner()).matches("replica-a:[A-Za-z0-9_-]{22}");
        assertThat(new RandomOwnerGenerator().nextOwner()).isNotEqualTo(new RandomOwnerGenerator().nextOwner());
        lease.close();
        assertThat(lease.isReleased()).isTrue();
        assertThat(lease.isLost()).isFalse();
    }

    @Test
    void tryAcquireNeverWaitsAndCloseReleases() {
        String resource = resource();
        try (Lease lease = locks.tryAcquire(resource, Duration.ofMinutes(1)).orElseThrow()) {
            assertThat(locks.tryAcquire(resource, Duration.ofMinutes(1))).isEmpty();
            assertThat(lease.isLost()).isFalse();
        }
        assertThat(locks.tryAcquire(resource, Duration.ofMinutes(1))).isPresent();
    }

    @Test
    void acquireWaitsForTheHolderToRelease() throws Exception {
        String resource = resource();
        Lease holder = locks.tryAcquire(resource, Duration.ofMinutes(1)).orElseThrow();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            CountDownLatch started = new CountDownLatch(1);
            Future<Optional<Lease>> waiter = pool.submit(() -> {
                started.countDown();
                return locks.acquire(resource, Duration.ofMinutes(1), Duration.ofSeconds(30));
            });
            assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
            await().atMost(Duration.ofSeconds(5)).until(() -> counting.statements() > 0);
            holder.release();
            Lease lease = waiter.get(30, TimeUnit.SECONDS).orElseThrow();
            assertThat(lease.token()).isGreaterThan(holder.token());
            lease.release();
        }
        finally {
            pool.shutdownNow();
        }
    }

    @Test
    void acquireGivesUpAfterMaxWait() throws Exception {
        String resource = resource();
        try (Lease holder = locks.tryAcquire(resource, Duration.ofMinutes(1)).orElseThrow()) {
            long start = System.nanoTime();
            assertThat(locks.acquire(resource, Duration.ofMinutes(1), Duration.ofMillis(300))).isEmpty();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
            assertThat(holder.isLost()).isFalse();
        }
    }

    @Test
    void acquireHonoursInterruption() throws Exception {
        String resource = resource();
        try (Lease holder = locks.tryAcquire(resource, Duration.ofMinutes(1)).orElseThrow()) {
            ExecutorService pool = Executors.newSingleThreadExecutor();
            Future<Optional<Lease>> waiter = pool.submit(
                    () -> locks.acquire(resource, Duration.ofMinutes(1), Duration.ofMinutes(5)));
            await().atMost(Duration.ofSeconds(5)).until(() -> !waiter.isDone());
            pool.shutdownNow();
            assertThatThrownBy(() -> waiter.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(InterruptedException.class);
            assertThat(holder.isLost()).isFalse();
        }
    }

    @Test
    void anAcquireWhoseAnswerWasLostAfterTheStoreTookTheLockGivesTheLockBack() {
        // The store takes the lock, and the answer never reaches the caller (a connection broken by its network
        // timeout while the server commits): nobody knows the owner, yet the lock is held for its whole TTL.
        LockRepository answerLost = new DelegatingLockRepository(repository(TestDatabase.H2.dataSource())) {
            @Override
            public Optional<LockRecord> acquire(String resource, String owner, Duration ttl) {
                super.acquire(resource, owner, ttl);
                throw new org.springframework.dao.DataAccessResourceFailureException("the answer was lost");
            }
        };
        String resource = resource();
        try (LockManager manager = LockManager.builder(answerLost).build()) {
            assertThatThrownBy(() -> manager.tryAcquire(resource, Duration.ofMinutes(5)))
                    .hasMessageContaining("the answer was lost");
            Optional<Lease> next = await().atMost(Duration.ofSeconds(5))
                    .until(() -> locks.tryAcquire(resource, Duration.ofSeconds(10)), Optional::isPresent);
            assertThat(next.orElseThrow().release()).isEqualTo(LockResult.APPLIED);
        }
    }

    @Test
    void watchdogRidesOutADatabaseOutageShorterThanTheLease() {
        FlakyDataSource flaky = new FlakyDataSource(TestDatabase.H2.dataSource());
        try (LockManager manager = LockManager.builder(repository(flaky)).build()) {
            Lease lease = manager.tryAcquire(resource(), Duration.ofSeconds(3)).orElseThrow().keepAlive(Duration.ofMinutes(1));
            flaky.failing.set(true);
            await().atMost(Duration.ofSeconds(5)).until(() -> flaky.refused.get() >= 2);
            flaky.failing.set(false);
            var before = lease.expiresAt();
            await().atMost(Duration.ofSeconds(5)).until(() -> lease.expiresAt().isAfter(before));
            assertThat(lease.isLost()).isFalse();
            assertThat(lease.release()).isEqualTo(LockResult.APPLIED);
        }
    }

    @Test
    void watchdogMarksALeaseLostWhenTheOutageOutlastsIt() throws Exception {
        FlakyDataSource flaky = new FlakyDataSource(TestDatabase.H2.dataSource());
        try (LockManager manager = LockManager.builder(repository(flaky)).build()) {
            CountDownLatch lost = new CountDownLatch(1);
            Lease lease = manager.tryAcquire(resource(), Duration.ofSeconds(1)).orElseThrow()
                    .onLost((l, reason) -> lost.countDown()).keepAlive(Duration.ofMinutes(1));
            flaky.failing.set(true);
            assertThat(lost.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(lease.isLost()).isTrue();
            assertThatThrownBy(lease::checkHeld).isInstanceOf(LockLostException.class)
                    .hasMessageContaining("renewal kept failing");
            assertThat(manager.watchdog().watchedCount()).isZero();
        }
    }

    @Test
    void anOutageLongerThanALeaseLogsOneWarnLineForItsFailedRenewalsAndTheirStackTracesOnlyAtDebug() throws Exception {
        ch.qos.logback.classic.Logger watchdogLog =
                (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(LeaseWatchdog.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> events =
                new ch.qos.logback.core.read.ListAppender<>();
        events.start();
        watchdogLog.addAppender(events);
        FlakyDataSource flaky = new FlakyDataSource(TestDatabase.H2.dataSource());
        java.util.concurrent.atomic.AtomicInteger failedRenewals = new java.util.concurrent.atomic.AtomicInteger();
        LockObserver counting = new LockObserver() {
            @Override
            public void renewalFailed(Lease lease, RuntimeException error) {
                failedRenewals.incrementAndGet();
            }
        };
        try (LockManager manager = LockManager.builder(repository(flaky)).observer(counting).build()) {
            CountDownLatch lost = new CountDownLatch(1);
            manager.tryAcquire(resource(), Duration.ofSeconds(1)).orElseThrow()
                    .onLost((l, reason) -> lost.countDown()).keepAlive(Duration.ofMinutes(1));
            flaky.failing.set(true);
            assertThat(lost.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(failedRenewals.get()).as("renewals failed again and again").isGreaterThan(2);
            List<ch.qos.logback.classic.spi.ILoggingEvent> warnings = events.list.stream()
                    .filter(event -> event.getLevel().isGreaterOrEqual(ch.qos.logback.classic.Level.WARN)).toList();
            assertThat(warnings).as("one WARN line for the outage").hasSize(1);
            assertThat(warnings.get(0).getFormattedMessage()).contains("Could not renew").contains("simulated outage");
            assertThat(warnings.get(0).getThrowableProxy()).as("no stack trace at WARN").isNull();
        }
        finally {
            watchdogLog.detachAppender(events);
        }
    }

    @Test
    void aFailedRenewalOfManyLeasesIsOneWarnLineNamingTheFirstFiveAndHowMany() throws Exception {
        ch.qos.logback.classic.Logger watchdogLog =
                (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(LeaseWatchdog.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> events =
                new ch.qos.logback.core.read.ListAppender<>();
        events.start();
        watchdogLog.addAppender(events);
        FlakyDataSource flaky = new FlakyDataSource(TestDatabase.H2.dataSource());
        try (LockManager manager = LockManager.builder(repository(flaky)).build()) {
            CountDownLatch lost = new CountDownLatch(6);
            for (int i = 0; i < 6; i++) {
                manager.tryAcquire(resource(), Duration.ofSeconds(1)).orElseThrow()
                        .onLost((l, reason) -> lost.countDown()).keepAlive(Duration.ofMinutes(1));
            }
            flaky.failing.set(true);
            assertThat(lost.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(events.list).filteredOn(event -> event.getLevel() == ch.qos.logback.classic.Level.WARN)
                    .extracting(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).first().asString()
                    .matches("Could not renew 6 leases \\('manager:[^']+', 'manager:[^']+', 'manager:[^']+', "
                            + "'manager:[^']+', 'manager:[^']+', …\\) with TTL PT1S; retrying until they would have "
                            + "run out: .*simulated outage.*");
        }
        finally {
            watchdogLog.detachAppender(events);
        }
    }

    @Test
    void leaseIsLostOnceItsTtlRanOutWithoutRenewal() {
        Lease lease = locks.tryAcquire(resource(), Duration.ofMillis(200)).orElseThrow();
        await().atMost(Duration.ofSeconds(3)).until(lease::isLost);
        assertThatThrownBy(lease::checkHeld).isInstanceOf(LockLostException.class).hasMessageContaining("ran out");
        assertThat(lease.release()).isEqualTo(LockResult.NOT_FOUND);
    }

    @Test
    void observersSeeEveryAcquireRenewalLossAndReleaseAndTheManagerCountsThem() throws InterruptedException {
        List<String> events = new CopyOnWriteArrayList<>();
        LockObserver recorder = new LockObserver() {
            @Override
            public void acquired(String name, Lease lease, Duration elapsed) {
                events.add("acquired " + name);
            }

            @Override
            public void held(String name, String resource, Duration elapsed) {
                events.add("held " + name);
            }

            @Override
            public void renewed(Lease lease) {
                events.add("renewed " + lease.metricsLabel());
            }

            @Override
            public void lost(Lease lease, String reason) {
                events.add("lost " + lease.metricsLabel());
            }

            @Override
            public void released(Lease lease, Duration held) {
                events.add("released " + lease.metricsLabel());
            }
        };
        try (LockManager manager = LockManager.builder(repository(counting)).observer(recorder).build()) {
            String resource = resource();
            Lease lease = manager.acquire(LockRequest.of(resource, Duration.ofMinutes(1)).withoutRenewal()
                    .withLabel("report:#{#month}")).orElseThrow();
            assertThat(manager.tryAcquire(resource, Duration.ofMinutes(1))).isEmpty();
            assertThat(manager.activeLeases()).containsExactly(lease);
            lease.renew(Duration.ofMinutes(2));
            lease.release();
            assertThat(manager.activeLeases()).isEmpty();
            Lease doomed = manager.tryAcquire(resource(), Duration.ofMillis(100)).orElseThrow();
            await().atMost(Duration.ofSeconds(3)).until(doomed::isLost);
            doomed.release();
            assertThat(manager.lostLeaseCount()).isEqualTo(1);
            assertThat(events).containsExactly("acquired report:#{#month}", "held programmatic",
                    "renewed report:#{#month}", "released report:#{#month}", "acquired programmatic",
                    "released programmatic", "lost programmatic");
        }
    }

    @Test
    void keepAliveTwiceThenReleaseNeverRenewsTheReleasedLease() throws InterruptedException {
        String resource = resource();
        Lease lease = locks.acquire(LockRequest.of(resource, Duration.ofMillis(300)).withMinHold(Duration.ofMillis(450))
                .withoutRenewal()).orElseThrow().keepAlive(Duration.ofMinutes(1)).keepAlive(Duration.ofMinutes(1));
        assertThat(lease.release()).isEqualTo(LockResult.APPLIED);
        var keptUntil = lease.acquiredAt().plusMillis(450);
        await().during(Duration.ofMillis(800)).atMost(Duration.ofSeconds(2)).until(() -> repository(counting)
                .find(resource).map(r -> r.expiresAt().equals(keptUntil)).orElse(true));
        assertThat(locks.watchdog().watchedCount()).isZero();
        assertThatThrownBy(() -> lease.renew(Duration.ofSeconds(1))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aLostListenerMayReleaseAnotherLeaseWithoutStoppingTheWatchdog() throws Exception {
        Lease doomed = locks.tryAcquire(resource(), Duration.ofSeconds(1)).orElseThrow();
        Lease sibling = locks.tryAcquire(resource(), Duration.ofSeconds(1)).orElseThrow();
        Lease bystander = locks.tryAcquire(resource(), Duration.ofSeconds(1)).orElseThrow();
        CountDownLatch released = new CountDownLatch(1);
        doomed.onLost((lease, reason) -> {
            sibling.release();
            released.countDown();
        });
        doomed.keepAlive(Duration.ofMinutes(1));
        sibling.keepAlive(Duration.ofMinutes(1));
        bystander.keepAlive(Duration.ofMinutes(1));
        TestDatabase.H2.execute("UPDATE " + table + " SET owner = 'thief' WHERE resource = '" + doomed.resource() + "'");
        assertThat(released.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(sibling.isReleased()).isTrue();
        var before = bystander.expiresAt();
        await().atMost(Duration.ofSeconds(3)).until(() -> bystander.expiresAt().isAfter(before));
        assertThat(bystander.isLost()).isFalse();
        bystander.release();
    }

    @Test
    void aManualRenewalWithAShorterTtlShortensHowLongTheHolderTrustsTheLease() {
        Lease lease = locks.tryAcquire(resource(), Duration.ofMinutes(10)).orElseThrow();
        assertThat(lease.renew(Duration.ofMillis(200)).isApplied()).isTrue();
        await().atMost(Duration.ofSeconds(3)).until(lease::isLost);
        assertThat(lease.release()).isEqualTo(LockResult.NOT_FOUND);
    }

    @Test
    void ttlsWithAFractionOfAMillisecondAreRefusedBeforeAnySql() {
        Lease lease = locks.tryAcquire(resource(), Duration.ofMinutes(1)).orElseThrow();
        counting.reset();
        assertThatIllegalArgumentException().isThrownBy(() -> locks.tryAcquire(resource(), Duration.ofNanos(1_500_000)))
                .withMessage("ttl must be a whole number of milliseconds, got PT0.0015S");
        assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.of("r", Duration.ofSeconds(1))
                .withMinHold(Duration.ofNanos(10_000_001))).withMessageContaining("minHold must be a whole number");
        assertThatIllegalArgumentException().isThrownBy(() -> lease.renew(Duration.ofNanos(1_000_001)))
                .withMessageContaining("ttl must be a whole number of milliseconds");
        assertThat(counting.statements()).isZero();
        assertThat(lease.isLost()).isFalse();
        lease.release();
    }

    @Test
    void releasingALeaseAStatementFoundGoneReturnsAtOnceWithoutAStatement() throws Exception {
        FlakyDataSource flaky = new FlakyDataSource(TestDatabase.H2.dataSource());
        try (LockManager manager = LockManager.builder(repository(flaky)).build()) {
            String resource = resource();
            Lease lease = manager.tryAcquire(resource, Duration.ofSeconds(30)).orElseThrow();
            manager.repository().release(resource, lease.owner());
            assertThat(lease.renew(Duration.ofSeconds(30))).isEqualTo(LockResult.NOT_FOUND);
            flaky.failing.set(true);
            assertThat(lease.release()).isEqualTo(LockResult.NOT_FOUND);
            assertThat(flaky.refused).as("no connection asked for during the outage").hasValue(0);
            assertThat(lease.lostReason()).hasValueSatisfying(reason -> assertThat(reason).contains("expired"));
        }
    }

    @Test
    void releasingALeaseThatRanOutOnlyOnThisMachinesClockFreesItsRowAndReportsItLost() {
        JdbcLockRepository jdbc = repository(counting);
        try (LockManager manager = LockManager.builder(jdbc).verifySchema(false).build()) {
            String resource = resource();
            Lease lease = manager.tryAcquire(resource, Duration.ofMillis(300)).orElseThrow();
            // Live in the database for longer than the holder counts, as when the database started it later.
            assertThat(jdbc.renew(resource, lease.owner(), Duration.ofMinutes(1)).status()).isEqualTo(LockResult.APPLIED);
            await().atMost(Duration.ofSeconds(3)).until(lease::isLost);
            assertThat(lease.release()).isEqualTo(LockResult.APPLIED);
            assertThat(jdbc.find(resource)).as("the release reached the database").isEmpty();
            assertThat(lease.lostReason()).hasValueSatisfying(reason -> assertThat(reason).contains("ran out"));
        }
    }

    @Test
    void aManualRenewalInFlightDoesNotSetTheWatchdogSpinning() throws Exception {
        HeldUpRenewals held = new HeldUpRenewals(repository(counting));
        try (LockManager manager = LockManager.builder(held).verifySchema(false).build()) {
            Lease lease = manager.acquire(LockRequest.of(resource(), Duration.ofSeconds(3))).orElseThrow();
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<LockResult> manual = pool.submit(() -> lease.renew(Duration.ofSeconds(30)));
                assertThat(held.renewing.await(5, TimeUnit.SECONDS)).as("the manual renewal is in flight").isTrue();
                long before = watchdogCpuNanos();
                // The lease falls due a second after it was taken, and stays due while the manual renewal holds it.
                await().pollDelay(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> true);
                long spent = watchdogCpuNanos() - before;
                held.resume.countDown();
                assertThat(manual.get(5, TimeUnit.SECONDS)).isEqualTo(LockResult.APPLIED);
                assertThat(Duration.ofNanos(spent)).as("the watchdog's CPU time while the lease was busy")
                        .isLessThan(Duration.ofMillis(150));
            }
            finally {
                pool.shutdownNow();
            }
            lease.release();
        }
    }

    @Test
    void aLeaseIsToldLostWithinOneRenewalIntervalOfRunningOutWhileItsRenewalIsHeldUp() throws Exception {
        HeldUpRounds held = new HeldUpRounds(repository(counting));
        try (LockManager manager = LockManager.builder(held).verifySchema(false).build()) {
            Duration ttl = Duration.ofMillis(900);
            AtomicReference<Long> toldAt = new AtomicReference<>();
            CountDownLatch lost = new CountDownLatch(1);
            long acquiredAt = System.nanoTime();
            Lease lease = manager.acquire(LockRequest.of(resource(), ttl)).orElseThrow().onLost((l, reason) -> {
                toldAt.set(System.nanoTime());
                lost.countDown();
            });
            // The first round waits, as a statement waiting for a pooled connection of a database that went away would.
            assertThat(lost.await(5, TimeUnit.SECONDS)).as("told while the round is still held up").isTrue();
            assertThat(held.released.getCount()).as("the round had not come back").isEqualTo(1);
            assertThat(Duration.ofNanos(toldAt.get() - acquiredAt)).as("from acquisition to the loss being told")
                    .isLessThan(ttl.plus(ttl.dividedBy(3)).plusMillis(300));
            held.released.countDown();
            lease.release();
        }
    }

    /** Delegates to a repository, holding every batch renewal up until the test lets it go (at most 5 s). */
    private static final class HeldUpRounds extends DelegatingLockRepository implements BatchRenewal {

        final CountDownLatch released = new CountDownLatch(1);

        HeldUpRounds(LockRepository delegate) {
            super(delegate);
        }

        @Override
        public java.util.Map<LeaseKey, LockRecord> renewAll(java.util.Collection<LeaseKey> leases, Duration ttl) {
            try {
                released.await(5, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            return delegate().capability(BatchRenewal.class).orElseThrow().renewAll(leases, ttl);
        }
    }

    private static long watchdogCpuNanos() {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long total = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().startsWith("distlock-watchdog")) {
                total += Math.max(0, threads.getThreadCpuTime(thread.getId()));
            }
        }
        return total;
    }

    /** Delegates to a repository, holding up the first manual renewal until the test lets it go on. */
    private static final class HeldUpRenewals extends DelegatingLockRepository {

        final CountDownLatch renewing = new CountDownLatch(1);

        final CountDownLatch resume = new CountDownLatch(1);

        HeldUpRenewals(LockRepository delegate) {
            super(delegate);
        }

        @Override
        public RenewResult renew(String resource, String owner, Duration ttl) {
            renewing.countDown();
            try {
                resume.await(5, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            return delegate().renew(resource, owner, ttl);
        }
    }

    @Test
    void aManualRenewalRacingTheWatchdogLeavesTheHolderBelievingNoLaterExpiryThanTheDatabase() throws Exception {
        PausingRepository pausing = new PausingRepository(repository(counting));
        try (LockManager manager = LockManager.builder(pausing).verifySchema(false).build()) {
            String resource = resource();
            Lease lease = manager.acquire(LockRequest.of(resource, Duration.ofMillis(1200))).orElseThrow();
            pausing.pauseNextRound.set(true);
            assertThat(pausing.roundExecuted.await(5, TimeUnit.SECONDS)).as("the watchdog renewed in the database").isTrue();
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<LockResult> manual = pool.submit(() -> lease.renew(Duration.ofMillis(400)));
                try {
                    manual.get(300, TimeUnit.MILLISECONDS);
                }
                catch (java.util.concurrent.TimeoutException waitingForTheRound) {
                    // ordered behind the watchdog's round, as it should be
                }
                pausing.resume.countDown();
                assertThat(manual.get(5, TimeUnit.SECONDS)).isEqualTo(LockResult.APPLIED);
            }
            finally {
                pool.shutdownNow();
            }
            LockRecord inDatabase = pausing.find(resource).orElseThrow();
            assertThat(lease.expiresAt()).as("the holder's expiry against the database's")
                    .isBeforeOrEqualTo(inDatabase.expiresAt());
            lease.release();
        }
    }

    /** Delegates to a repository, holding the answer of one watchdog round back after the database ran it. */
    private static final class PausingRepository extends DelegatingLockRepository implements BatchRenewal {

        final AtomicBoolean pauseNextRound = new AtomicBoolean();

        final CountDownLatch roundExecuted = new CountDownLatch(1);

        final CountDownLatch resume = new CountDownLatch(1);

        PausingRepository(LockRepository delegate) {
            super(delegate);
        }

        @Override
        public java.util.Map<LeaseKey, LockRecord> renewAll(java.util.Collection<LeaseKey> leases, Duration ttl) {
            java.util.Map<LeaseKey, LockRecord> renewed = delegate().capability(BatchRenewal.class).orElseThrow()
                    .renewAll(leases, ttl);
            if (pauseNextRound.compareAndSet(true, false)) {
                roundExecuted.countDown();
                try {
                    resume.await(5, TimeUnit.SECONDS);
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
            return renewed;
        }
    }

    /**
     * A database outage: while failing, no connection is given, and connections given before fail every statement
     * they are asked to prepare (such as the one the watchdog keeps for renewals).
     */
    private static final class FlakyDataSource extends DelegatingDataSource {

        final AtomicBoolean failing = new AtomicBoolean();

        final java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();

        FlakyDataSource(DataSource target) {
            super(target);
        }

        @Override
        public Connection getConnection() throws SQLException {
            if (failing.get()) {
                refused.incrementAndGet();
                throw new SQLException("Connection refused (simulated outage)", "08001");
            }
            Connection connection = super.getConnection();
            return (Connection) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (failing.get() && method.getName().matches("prepareStatement|prepareCall|createStatement")) {
                            refused.incrementAndGet();
                            throw new SQLException("Connection reset (simulated outage)", "08S01");
                        }
                        try {
                            return method.invoke(connection, args);
                        }
                        catch (java.lang.reflect.InvocationTargetException ex) {
                            throw ex.getCause();
                        }
                    });
        }
    }
}
