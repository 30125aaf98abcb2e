package io.distlock.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.distlock.core.LeaseKey;
import io.distlock.core.LockRecord;
import io.distlock.testsupport.TestDatabase;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.LazyConnectionDataSourceProxy;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * How the lock table on JDBC survives what happens around it, written once and run on every database: other
 * sessions holding its rows or the whole table locked, and data sources wrapped so that they hand out the caller's
 * transactional connection. Each behaviour is shown with real sessions of the database, not with mocks.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LockRepositoryFaultContractTests {

    /** The statement timeout of the repository under test. */
    static final Duration BOUND = Duration.ofSeconds(1);

    /** Slack on top of the bound for a busy machine. */
    private static final Duration MARGIN = Duration.ofMillis(2500);

    private static final Duration LONG = Duration.ofMinutes(5);

    private LockTableName table;

    private JdbcLockRepository repository;

    private ExecutorService calls;

    protected abstract TestDatabase database();

    /**
     * A statement that locks the whole lock table against every read and write of other sessions, or {@code null}
     * when the database has none.
     */
    protected abstract @Nullable String lockTableStatement(LockTableName table);

    /**
     * Whether the database's clock moves within a statement, so that an acquire can read the time again once it holds
     * the row's lock; where it cannot, a lease that ran out during the wait is not handed out at all.
     */
    protected abstract boolean clockMovesWithinAStatement();

    /**
     * Whether the acquire decides whether a lease ran out with the time read under the row's lock (PostgreSQL), rather
     * than with the time the statement started (so that a lease that ran out during the wait still counts as held).
     */
    protected abstract boolean decidesUnderTheRowLock();

    /**
     * A lock table with its token sequence whose columns have types that break the guarantees, and what the schema
     * check must say about it.
     *
     * @param table the table's name; the sequence is named after it
     */
    protected abstract WrongTable wronglyTypedTable(String table);

    /**
     * The DDL of a wrongly typed lock table and the parts of the message that refuses it.
     *
     * @param script {@code ;}-separated statements creating the table and its sequence
     * @param messageParts what the message must name: columns, types found, types expected
     */
    protected record WrongTable(String script, List<String> messageParts) {
    }

    @BeforeAll
    void createTable() {
        table = database().createLockTable();
        repository = JdbcLockRepository.builder(database().dataSource()).tableName(table.value())
                .dialect(database().dialect()).statementTimeout(BOUND).build();
        calls = Executors.newCachedThreadPool();
    }

    @AfterAll
    void dropTable() {
        if (calls != null) {
            calls.shutdownNow();
        }
        if (table != null) {
            database().dropLockTable(table);
        }
    }

    private static String resource() {
        return "fault:" + UUID.randomUUID();
    }

    private static String owner() {
        return "owner-" + UUID.randomUUID();
    }

    // Statement timeout

    @Test
    void acquireOfARowLockedByAnotherSessionAnswersNotAcquiredWithinTheBoundAndWritesNothing() throws Exception {
        String resource = resource();
        LockRecord expired = repository.acquire(resource, owner(), LONG).orElseThrow();
        expireLongAgo(resource);
        Timed<java.util.Optional<LockRecord>> attempt;
        try (OutsideSession outside = OutsideSession.lockingRow(database(), table, resource)) {
            attempt = timed(() -> repository.acquire(resource, owner(), LONG), outside);
        }
        assertThat(attempt.value()).as("not acquired").isEmpty();
        assertThat(attempt.elapsed()).as("waited for the row lock, at most the bound")
                .isBetween(BOUND.minusMillis(200), BOUND.plus(MARGIN));
        assertThat(owner(resource)).as("the cancelled statement was rolled back").isEqualTo(expired.owner());
        assertThat(token(resource)).isEqualTo(expired.token());
        String next = owner();
        assertThat(repository.acquire(resource, next, LONG)).as("free once the other session ended")
                .hasValueSatisfying(record -> assertThat(record.owner()).isEqualTo(next));
    }

    @Test
    void acquireOfAHeldLockWhoseRowAnotherSessionHoldsLockedIsRefusedWithinTheBoundAndWritesNothing()
            throws Exception {
        String resource = resource();
        LockRecord held = repository.acquire(resource, owner(), LONG).orElseThrow();
        Timed<java.util.Optional<LockRecord>> attempt;
        try (OutsideSession outside = OutsideSession.lockingRow(database(), table, resource)) {
            attempt = timed(() -> repository.acquire(resource, owner(), LONG), outside);
        }
        assertThat(attempt.value()).as("not acquired").isEmpty();
        assertThat(attempt.elapsed()).as("at most the bound").isLessThan(BOUND.plus(MARGIN));
        assertThat(owner(resource)).as("the holder keeps it").isEqualTo(held.owner());
        assertThat(token(resource)).isEqualTo(held.token());
    }

    @Test
    void renewAllOfABatchPassesOverARowLockedByAnotherSessionWithoutWaitingForIt() throws Exception {
        String stuck = resource();
        String healthy = resource();
        String owner = owner();
        repository.acquire(stuck, owner, LONG).orElseThrow();
        repository.acquire(healthy, owner, LONG).orElseThrow();
        List<LeaseKey> batch = List.of(new LeaseKey(healthy, owner), new LeaseKey(stuck, owner));
        Timed<Map<LeaseKey, LockRecord>> attempt;
        try (OutsideSession outside = OutsideSession.lockingRow(database(), table, stuck)) {
            attempt = timed(() -> repository.renewAll(batch, LONG), outside);
            assertThat(attempt.failure()).isNull();
            assertThat(attempt.value()).as("the healthy lease renewed, the stuck row passed over")
                    .containsOnlyKeys(batch.get(0));
            assertThat(attempt.elapsed()).as("without waiting for the stuck row").isLessThan(BOUND);
            Timed<?> alone = timed(() -> repository.renew(stuck, owner, LONG), outside);
            assertThat(alone.failure()).as("the stuck lease alone waits, within the bound")
                    .isInstanceOf(QueryTimeoutException.class);
            assertThat(alone.elapsed()).isLessThan(BOUND.plus(MARGIN));
        }
        assertThat(repository.renewAll(batch, LONG)).containsOnlyKeys(batch);
    }

    @Test
    void renewAndReleaseOfARowLockedByAnotherSessionThrowQueryTimeoutWithinTheBound() throws Exception {
        String resource = resource();
        String owner = owner();
        repository.acquire(resource, owner, LONG).orElseThrow();
        try (OutsideSession outside = OutsideSession.lockingRow(database(), table, resource)) {
            Timed<?> renew = timed(() -> repository.renew(resource, owner, LONG), outside);
            assertThat(renew.failure()).isInstanceOf(QueryTimeoutException.class);
            assertThat(renew.elapsed()).isLessThan(BOUND.plus(MARGIN));
            Timed<?> release = timed(() -> repository.release(resource, owner), outside);
            assertThat(release.failure()).isInstanceOf(QueryTimeoutException.class);
            assertThat(release.elapsed()).isLessThan(BOUND.plus(MARGIN));
        }
        assertThat(repository.find(resource)).as("still held: nothing was released").isPresent();
    }

    @Test
    void everyStatementOnALockedTableEndsWithinTheBound() throws Exception {
        String lock = lockTableStatement(table);
        assumeTrue(lock != null, database() + " cannot lock a table against other sessions' reads");
        String resource = resource();
        String owner = owner();
        repository.acquire(resource, owner, LONG).orElseThrow();
        try (OutsideSession outside = OutsideSession.lockingTable(database(), lock)) {
            Timed<?> acquire = timed(() -> repository.acquire(resource(), owner(), LONG), outside);
            assertThat(acquire.value()).isEqualTo(java.util.Optional.empty());
            assertThat(acquire.elapsed()).isLessThan(BOUND.plus(MARGIN));
            List<Callable<?>> operations = List.of(() -> repository.find(resource), repository::findAll,
                    () -> repository.renew(resource, owner, LONG),
                    () -> repository.renewAll(List.of(new LeaseKey(resource, owner)), LONG),
                    () -> repository.release(resource, owner), () -> repository.deleteExpired(Duration.ofHours(1)),
                    () -> {
                        repository.verifySchema();
                        return null;
                    });
            for (Callable<?> operation : operations) {
                Timed<?> call = timed(operation, outside);
                assertThat(call.failure()).isInstanceOf(QueryTimeoutException.class);
                assertThat(call.elapsed()).isLessThan(BOUND.plus(MARGIN));
            }
        }
        assertThat(repository.find(resource)).isPresent();
    }

    // Slot statements: bounded as the lock statements are

    @Test
    void slotClaimAndFinishOfAJobWhoseRowAnotherSessionHoldsLockedEndWithinTheBoundAndClaimNothing() throws Exception {
        String job = resource();
        String owner = owner();
        LockRecord held = repository.acquire(job, owner, LONG).orElseThrow();
        Instant running = Instant.parse("2026-01-01T00:00:00Z");
        Instant next = running.plusSeconds(60);
        assertThat(repository.claimSlot(job, owner, running, false).status())
                .isEqualTo(io.distlock.core.SlotClaim.Status.CLAIMED);
        try (OutsideSession outside = OutsideSession.lockingRow(database(), table, job)) {
            Timed<?> claim = timed(() -> repository.claimSlot(job, owner, next, false), outside);
            assertThat(claim.failure()).isInstanceOf(QueryTimeoutException.class);
            assertThat(claim.elapsed()).as("the claim, at most the bound").isLessThan(BOUND.plus(MARGIN));
            Timed<?> finish = timed(() -> {
                repository.finishSlot(job, running, held.token(), io.distlock.core.SlotRunOutcome.SUCCEEDED);
                return null;
            }, outside);
            assertThat(finish.failure()).isInstanceOf(QueryTimeoutException.class);
            assertThat(finish.elapsed()).as("the finish, at most the bound").isLessThan(BOUND.plus(MARGIN));
        }
        assertThat(repository.recentSlotRuns(job, 10)).as("the timed-out claim left no history entry")
                .extracting(io.distlock.core.SlotRun::slot).containsExactly(running);
        assertThat(repository.claimSlot(job, owner, next, false).status()).as("nor a half-made claim")
                .isEqualTo(io.distlock.core.SlotClaim.Status.CLAIMED);
    }

    @Test
    void theSlotHistoryReadOfALockedSlotTableEndsWithinTheBound() throws Exception {
        String lock = lockTableStatement(new LockTableName(table.value() + "_slots"));
        assumeTrue(lock != null, database() + " cannot lock a table against other sessions' reads");
        try (OutsideSession outside = OutsideSession.lockingTable(database(), lock)) {
            for (Callable<?> read : List.<Callable<?>>of(() -> repository.recentSlotRuns(null, 50),
                    () -> repository.recentSlotRuns("job:" + UUID.randomUUID(), 50))) {
                Timed<?> call = timed(read, outside);
                assertThat(call.failure()).isInstanceOf(QueryTimeoutException.class);
                assertThat(call.elapsed()).isLessThan(BOUND.plus(MARGIN));
            }
        }
    }

    @Test
    void statementTimeoutShorterThanASecondIsRefusedNamingTheValue() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> JdbcLockRepository.builder(database().dataSource())
                        .statementTimeout(Duration.ofMillis(500)))
                .withMessage("statementTimeout must be at least PT1S, got PT0.5S");
    }

    // Times of an acquire that waited for a row lock

    @Test
    void anAcquireThatWaitedForARowLockLongerThanItsTtlHandsOutOnlyALiveLease() throws Exception {
        JdbcLockRepository patient = repositoryOn(database().dataSource(), Duration.ofSeconds(5));
        String resource = resource();
        repository.acquire(resource, owner(), LONG).orElseThrow();
        expireLongAgo(resource);
        Duration ttl = Duration.ofMillis(400);
        String owner = owner();
        java.util.Optional<LockRecord> acquired;
        Instant returnedBy;
        try (OutsideSession outside = OutsideSession.lockingRow(database(), table, resource)) {
            Future<java.util.Optional<LockRecord>> waiting = calls.submit(() -> patient.acquire(resource, owner, ttl));
            awaitBlockedLongerThan(waiting, ttl.multipliedBy(2));
            outside.close();
            acquired = waiting.get(10, TimeUnit.SECONDS);
            returnedBy = databaseNow();
        }
        if (clockMovesWithinAStatement()) {
            assertThat(acquired).as("taken once the row lock was free").isPresent();
        }
        acquired.ifPresentOrElse(lease -> {
            assertThat(lease.owner()).isEqualTo(owner);
            assertThat(lease.expiresAt()).as("live when the statement ended").isAfter(returnedBy);
            assertThat(repository.find(resource)).contains(lease);
        }, () -> assertThat(repository.find(resource)).as("what was not handed out is not held either").isEmpty());
    }

    @Test
    void aLeaseWhoseAcquireWaitedForARowLockLongerThanItsTtlIsTrustedByItsHolderAndItsReleaseFreesTheLock()
            throws Exception {
        JdbcLockRepository patient = repositoryOn(database().dataSource(), Duration.ofSeconds(5));
        String resource = resource();
        repository.acquire(resource, owner(), LONG).orElseThrow();
        expireLongAgo(resource);
        Duration ttl = Duration.ofSeconds(1);
        try (io.distlock.core.LockManager manager = io.distlock.core.LockManager.builder(patient)
                .verifySchema(false).build()) {
            java.util.Optional<io.distlock.core.Lease> acquired;
            try (OutsideSession outside = OutsideSession.lockingRow(database(), table, resource)) {
                Future<java.util.Optional<io.distlock.core.Lease>> waiting = calls.submit(
                        () -> manager.tryAcquire(resource, ttl));
                awaitBlockedLongerThan(waiting, ttl.plusMillis(500));
                outside.close();
                acquired = waiting.get(10, TimeUnit.SECONDS);
            }
            if (clockMovesWithinAStatement()) {
                assertThat(acquired).as("taken once the row lock was free").isPresent();
            }
            acquired.ifPresentOrElse(lease -> {
                assertThat(lease.isLost()).as("live when handed out, by the holder's clock too").isFalse();
                assertThat(lease.release()).isEqualTo(io.distlock.core.LockResult.APPLIED);
                assertThat(repository.acquire(resource, owner(), ttl)).as("the next owner takes it at once")
                        .isPresent();
            }, () -> assertThat(repository.find(resource)).as("what was not handed out is not held either").isEmpty());
        }
    }

    @Test
    void aTakeoverAfterWaitingForARowLockNeverStartsBeforeThePreviousHoldersExpiry() throws Exception {
        JdbcLockRepository patient = repositoryOn(database().dataSource(), Duration.ofSeconds(5));
        String resource = resource();
        LockRecord previous = repository.acquire(resource, owner(), Duration.ofMillis(500)).orElseThrow();
        try (OutsideSession outside = OutsideSession.lockingRow(database(), table, resource)) {
            String owner = owner();
            Future<java.util.Optional<LockRecord>> waiting = calls.submit(() -> patient.acquire(resource, owner, LONG));
            awaitBlockedLongerThan(waiting, Duration.ofMillis(1200));
            assertThat(databaseNow()).as("the previous lease ran out during the wait").isAfter(previous.expiresAt());
            outside.close();
            java.util.Optional<LockRecord> acquired = waiting.get(10, TimeUnit.SECONDS);
            if (decidesUnderTheRowLock()) {
                assertThat(acquired).as("the decision was taken under the row lock, after the expiry").isPresent();
            }
            acquired.ifPresent(lease -> {
                assertThat(lease.acquiredAt()).as("not before the previous holder's expiry")
                        .isAfterOrEqualTo(previous.expiresAt());
                assertThat(lease.token()).isGreaterThan(previous.token());
            });
        }
    }

    /** Holds the caller until a call has stayed blocked, without an answer, for the given time. */
    private static void awaitBlockedLongerThan(Future<?> call, Duration duration) {
        org.awaitility.Awaitility.await().during(duration).atMost(duration.plusSeconds(5))
                .pollInterval(Duration.ofMillis(50)).until(() -> !call.isDone());
    }

    private Instant databaseNow() throws SQLException {
        try (Connection connection = database().dataSource().getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "SELECT " + database().dialect().currentTimeExpression());
                ResultSet rs = statement.executeQuery()) {
            rs.next();
            return database().dialect().readInstant(rs, 1);
        }
    }

    // Pools at a stricter isolation level

    @Test
    void sixteenThreadsClaimingAnExpiredLockThroughASerializablePoolGiveOneWinnerAndLeaveThePoolSerializable()
            throws Exception {
        raceThroughAPoolAt(Connection.TRANSACTION_SERIALIZABLE, "TRANSACTION_SERIALIZABLE");
    }

    @Test
    void sixteenThreadsClaimingAnExpiredLockThroughARepeatableReadPoolGiveOneWinnerAndLeaveThePoolAsItWas()
            throws Exception {
        raceThroughAPoolAt(Connection.TRANSACTION_REPEATABLE_READ, "TRANSACTION_REPEATABLE_READ");
    }

    private void raceThroughAPoolAt(int level, String levelName) throws Exception {
        int threads = 16;
        try (HikariDataSource strict = pool("isolation-" + level, threads, config -> config
                .setTransactionIsolation(levelName))) {
            JdbcLockRepository onStrict = repositoryOn(strict, Duration.ofSeconds(10));
            ExecutorService racers = Executors.newFixedThreadPool(threads);
            try {
                for (int round = 0; round < 5; round++) {
                    String resource = resource();
                    LockRecord expired = onStrict.acquire(resource, owner(), LONG).orElseThrow();
                    expireLongAgo(resource);
                    java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
                    List<Future<java.util.Optional<LockRecord>>> attempts = new java.util.ArrayList<>();
                    for (int i = 0; i < threads; i++) {
                        attempts.add(racers.submit(() -> {
                            go.await();
                            return onStrict.acquire(resource, owner(), LONG);
                        }));
                    }
                    go.countDown();
                    List<LockRecord> winners = new java.util.ArrayList<>();
                    for (Future<java.util.Optional<LockRecord>> attempt : attempts) {
                        attempt.get(60, TimeUnit.SECONDS).ifPresent(winners::add);
                    }
                    assertThat(winners).as("round %d", round).hasSize(1);
                    assertThat(winners.get(0).token()).isGreaterThan(expired.token());
                    assertThat(repository.find(resource)).contains(winners.get(0));
                }
                // Sustained contention: every thread takes and gives back one lock as fast as it can.
                String contended = resource();
                java.util.concurrent.atomic.AtomicInteger holders = new java.util.concurrent.atomic.AtomicInteger();
                java.util.concurrent.atomic.AtomicInteger overlaps = new java.util.concurrent.atomic.AtomicInteger();
                List<Future<Integer>> cycles = new java.util.ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    cycles.add(racers.submit(() -> {
                        int taken = 0;
                        for (int cycle = 0; cycle < 40; cycle++) {
                            String owner = owner();
                            if (onStrict.acquire(contended, owner, LONG).isPresent()) {
                                if (holders.incrementAndGet() > 1) {
                                    overlaps.incrementAndGet();
                                }
                                holders.decrementAndGet();
                                assertThat(onStrict.release(contended, owner))
                                        .isEqualTo(io.distlock.core.LockResult.APPLIED);
                                taken++;
                            }
                        }
                        return taken;
                    }));
                }
                int taken = 0;
                for (Future<Integer> cycle : cycles) {
                    taken += cycle.get(2, TimeUnit.MINUTES);
                }
                assertThat(overlaps).hasValue(0);
                assertThat(taken).isPositive();
            }
            finally {
                racers.shutdownNow();
            }
            List<Connection> all = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < threads; i++) {
                    all.add(strict.getConnection());
                }
                assertThat(all).as("every connection of the pool is given back at its level")
                        .allSatisfy(connection -> assertThat(connection.getTransactionIsolation()).isEqualTo(level));
            }
            finally {
                for (Connection connection : all) {
                    connection.close();
                }
            }
        }
    }

    /** A small pool of its own on the database, opened up front. */
    private HikariDataSource pool(String name, int size, java.util.function.Consumer<HikariConfig> customizer) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database().url());
        config.setUsername(database().user());
        config.setPassword(database().password());
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        config.setPoolName(name + "-" + database().id());
        customizer.accept(config);
        return new HikariDataSource(config);
    }

    // A connection kept for lease renewals

    @Test
    void leasesKeptAliveWhileGuardedWorkHoldsEveryOtherPooledConnectionAreNotLost() throws Exception {
        Duration ttl = Duration.ofSeconds(1);
        try (HikariDataSource small = pool("renewals", 2, config -> config.setConnectionTimeout(4000));
                io.distlock.core.LockManager manager = io.distlock.core.LockManager.builder(repositoryOn(small)).build()) {
            io.distlock.core.Lease first = manager.acquire(io.distlock.core.LockRequest.of(resource(), ttl)).orElseThrow();
            io.distlock.core.Lease second = manager.acquire(io.distlock.core.LockRequest.of(resource(), ttl))
                    .orElseThrow();
            Instant firstExpiry = first.expiresAt();
            Instant secondExpiry = second.expiresAt();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).alias("the watchdog renewed both")
                    .until(() -> first.expiresAt().isAfter(firstExpiry) && second.expiresAt().isAfter(secondExpiry));
            workHoldsThePoolForThreeTtls(small, ttl, "neither lease lost for three TTLs",
                    () -> !first.isLost() && !second.isLost());
            assertThat(repository.find(first.resource()).map(LockRecord::owner)).contains(first.owner());
            assertThat(repository.find(second.resource()).map(LockRecord::owner)).contains(second.owner());
            assertThat(first.release()).isEqualTo(io.distlock.core.LockResult.APPLIED);
            assertThat(second.release()).isEqualTo(io.distlock.core.LockResult.APPLIED);
        }
    }

    @Test
    void aLeaseWhoseGuardedWorkTakesEveryOtherConnectionBeforeTheFirstRenewalIsNotLost() throws Exception {
        Duration ttl = Duration.ofSeconds(1);
        try (HikariDataSource small = pool("first-renewal", 2, config -> config.setConnectionTimeout(4000));
                io.distlock.core.LockManager manager = io.distlock.core.LockManager.builder(repositoryOn(small)).build()) {
            io.distlock.core.Lease lease = manager.acquire(io.distlock.core.LockRequest.of(resource(), ttl))
                    .orElseThrow();
            Instant expiry = lease.expiresAt();
            // The guarded work starts at once and takes every connection the pool gives it, before any renewal.
            workHoldsThePoolForThreeTtls(small, ttl, "the lease renewed and not lost for three TTLs",
                    () -> !lease.isLost());
            assertThat(lease.expiresAt()).as("renewed").isAfter(expiry);
            assertThat(repository.find(lease.resource()).map(LockRecord::owner)).contains(lease.owner());
            assertThat(lease.release()).isEqualTo(io.distlock.core.LockResult.APPLIED);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).alias("the reserved connection given back")
                    .until(() -> small.getHikariPoolMXBean().getActiveConnections() == 0);
        }
    }

    @Test
    void aLeaseWhoseGuardedWorkTakesEveryOtherConnectionAfterTheReservedOneBrokeIsNotLost() throws Exception {
        Duration ttl = Duration.ofSeconds(1);
        try (HikariDataSource small = pool("after-break", 2, config -> config.setConnectionTimeout(4000))) {
            BreakableDataSource breakable = new BreakableDataSource(small);
            try (io.distlock.core.LockManager manager = io.distlock.core.LockManager.builder(repositoryOn(breakable))
                    .build()) {
                io.distlock.core.Lease earlier = manager.acquire(io.distlock.core.LockRequest.of(resource(),
                        Duration.ofSeconds(8))).orElseThrow();
                assertThat(small.getHikariPoolMXBean().getActiveConnections()).as("reserved").isEqualTo(1);
                breakable.breakLast();
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                        .alias("a renewal failed on the broken reserved connection, which was closed")
                        .until(() -> small.getHikariPoolMXBean().getActiveConnections() == 0);
                // Before the watchdog tries again, a new lease's guarded work takes every connection it can get.
                io.distlock.core.Lease later = manager.acquire(io.distlock.core.LockRequest.of(resource(), ttl))
                        .orElseThrow();
                workHoldsThePoolForThreeTtls(small, ttl, "neither lease lost for three TTLs of the later one",
                        () -> !earlier.isLost() && !later.isLost());
                assertThat(later.release()).isEqualTo(io.distlock.core.LockResult.APPLIED);
                assertThat(earlier.release()).isEqualTo(io.distlock.core.LockResult.APPLIED);
            }
        }
    }

    @Test
    void aManagerThatStopsKeepingLeasesAliveLeavesTheReservationOfAnotherManagerOnTheSameRepository()
            throws Exception {
        Duration ttl = Duration.ofSeconds(1);
        try (HikariDataSource small = pool("two-managers", 2, config -> config.setConnectionTimeout(4000))) {
            JdbcLockRepository shared = repositoryOn(small);
            try (io.distlock.core.LockManager first = io.distlock.core.LockManager.builder(shared).build();
                    io.distlock.core.LockManager second = io.distlock.core.LockManager.builder(shared).build()) {
                io.distlock.core.Lease done = first.acquire(io.distlock.core.LockRequest.of(resource(), ttl))
                        .orElseThrow();
                io.distlock.core.Lease kept = second.acquire(io.distlock.core.LockRequest.of(resource(), ttl))
                        .orElseThrow();
                assertThat(done.release()).isEqualTo(io.distlock.core.LockResult.APPLIED);
                org.awaitility.Awaitility.await().alias("the second manager's reservation kept")
                        .during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
                        .pollInterval(Duration.ofMillis(10))
                        .until(() -> small.getHikariPoolMXBean().getActiveConnections() == 1);
                workHoldsThePoolForThreeTtls(small, ttl, "the second manager's lease not lost for three TTLs",
                        () -> !kept.isLost());
                assertThat(kept.release()).isEqualTo(io.distlock.core.LockResult.APPLIED);
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).alias("given back by the last one")
                        .until(() -> small.getHikariPoolMXBean().getActiveConnections() == 0);
            }
        }
    }

    /**
     * Guarded work in two threads takes every connection the pool gives it, in open transactions, and holds them for
     * three TTLs, while the leases must stay kept.
     */
    private void workHoldsThePoolForThreeTtls(HikariDataSource small, Duration ttl, String what,
            Callable<Boolean> leasesKept) throws Exception {
        java.util.concurrent.CountDownLatch workDone = new java.util.concurrent.CountDownLatch(1);
        List<Future<Boolean>> work = List.of(calls.submit(() -> holdAConnection(small, workDone)),
                calls.submit(() -> holdAConnection(small, workDone)));
        try {
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).alias("every connection in use")
                    .until(() -> small.getHikariPoolMXBean().getActiveConnections() == 2);
            org.awaitility.Awaitility.await().alias(what).during(ttl.multipliedBy(3)).atMost(ttl.multipliedBy(4))
                    .pollInterval(Duration.ofMillis(50)).until(leasesKept);
        }
        finally {
            workDone.countDown();
        }
        for (Future<Boolean> held : work) {
            held.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void renewalThatCannotGetAConnectionTellsAtWarnHowToSizeThePool() throws Exception {
        String resource = resource();
        String owner = owner();
        repository.acquire(resource, owner, LONG).orElseThrow();
        List<LeaseKey> lease = List.of(new LeaseKey(resource, owner));
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> warnings = listen();
        try (HikariDataSource tiny = pool("sized-too-small", 1, config -> config.setConnectionTimeout(250))) {
            JdbcLockRepository onTiny = repositoryOn(tiny);
            try (Connection guardedWork = tiny.getConnection()) {
                onTiny.reserveForRenewals(this, true);
                assertThatThrownBy(() -> onTiny.renewAll(lease, LONG))
                        .isInstanceOf(org.springframework.dao.DataAccessException.class);
            }
            assertThat(warnings.list).isNotEmpty().allSatisfy(event -> {
                assertThat(event.getLevel()).isEqualTo(ch.qos.logback.classic.Level.WARN);
                assertThat(event.getFormattedMessage()).contains("sized-too-small")
                        .contains("guarded work's connections + 1 for the lock watchdog");
            });
            assertThat(onTiny.renewAll(lease, LONG)).as("renewed once a connection is free").containsOnlyKeys(lease);
            assertThat(tiny.getHikariPoolMXBean().getActiveConnections()).as("kept for the next renewals")
                    .isEqualTo(1);
            onTiny.reserveForRenewals(this, false);
            assertThat(tiny.getHikariPoolMXBean().getActiveConnections()).as("given back").isZero();
        }
        finally {
            ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(StatementExecutor.class))
                    .detachAppender(warnings);
        }
    }

    @Test
    void aReservedConnectionThatBreaksIsReplacedByTheNextRenewalAndEveryRenewalUsesIt() throws Exception {
        String resource = resource();
        String owner = owner();
        repository.acquire(resource, owner, LONG).orElseThrow();
        List<LeaseKey> lease = List.of(new LeaseKey(resource, owner));
        try (HikariDataSource small = pool("breaking", 2, config -> { })) {
            BreakableDataSource breakable = new BreakableDataSource(small);
            JdbcLockRepository onBreakable = repositoryOn(breakable);
            int before = breakable.taken();
            onBreakable.reserveForRenewals(this, true);
            assertThat(breakable.taken()).as("taken when reserved").isEqualTo(before + 1);
            assertThat(small.getHikariPoolMXBean().getActiveConnections()).as("and kept").isEqualTo(1);
            assertThat(onBreakable.renewAll(lease, LONG)).containsOnlyKeys(lease);
            for (int i = 0; i < 3; i++) {
                assertThat(onBreakable.renewAll(lease, LONG)).containsOnlyKeys(lease);
            }
            assertThat(breakable.taken()).as("every renewal on the reserved connection").isEqualTo(before + 1);
            breakable.breakLast();
            assertThatThrownBy(() -> onBreakable.renewAll(lease, LONG))
                    .isInstanceOf(org.springframework.dao.DataAccessException.class);
            assertThat(small.getHikariPoolMXBean().getActiveConnections()).as("the broken one was closed").isZero();
            assertThat(onBreakable.renewAll(lease, LONG)).containsOnlyKeys(lease);
            assertThat(breakable.taken()).as("a fresh one").isEqualTo(before + 2);
            onBreakable.reserveForRenewals(this, false);
            assertThat(small.getHikariPoolMXBean().getActiveConnections()).isZero();
        }
    }

    private static boolean holdAConnection(DataSource pool, java.util.concurrent.CountDownLatch done)
            throws Exception {
        try (Connection connection = pool.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement statement = connection.prepareStatement("SELECT 1")) {
                statement.executeQuery().close();
            }
            done.await();
            connection.rollback();
            return true;
        }
        catch (SQLException ex) {
            return false;
        }
    }

    private static ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> listen() {
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> appender =
                new ch.qos.logback.core.read.ListAppender<>();
        appender.start();
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(StatementExecutor.class))
                .addAppender(appender);
        return appender;
    }

    /** A data source whose last connection handed out can be broken: its statements fail from then on. */
    private static final class BreakableDataSource extends DelegatingDataSource {

        private final java.util.concurrent.atomic.AtomicInteger taken = new java.util.concurrent.atomic.AtomicInteger();

        private volatile java.util.concurrent.atomic.AtomicBoolean lastBroken = new java.util.concurrent.atomic.AtomicBoolean();

        BreakableDataSource(DataSource target) {
            super(target);
        }

        int taken() {
            return taken.get();
        }

        void breakLast() {
            lastBroken.set(true);
        }

        @Override
        public Connection getConnection() throws SQLException {
            Connection target = super.getConnection();
            taken.incrementAndGet();
            java.util.concurrent.atomic.AtomicBoolean broken = new java.util.concurrent.atomic.AtomicBoolean();
            lastBroken = broken;
            return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (broken.get() && method.getName().startsWith("prepare")) {
                            throw new SQLException("Connection reset (simulated)", "08006");
                        }
                        try {
                            return method.invoke(target, args);
                        }
                        catch (InvocationTargetException ex) {
                            throw ex.getCause();
                        }
                    });
        }
    }

    // Isolation from the caller's transaction

    @Test
    void aDecoratorInFrontOfATransactionAwareProxyNeitherCommitsTheCallersWorkNorLosesTheLockToItsRollback() {
        callersTransactionIsLeftAlone(pool -> new DelegatingDataSource(new TransactionAwareDataSourceProxy(pool)));
    }

    @Test
    void aLazyProxyOverATransactionAwareProxyKeepsTheLockOutOfTheCallersTransaction() {
        callersTransactionIsLeftAlone(pool -> new LazyConnectionDataSourceProxy(new TransactionAwareDataSourceProxy(pool)));
    }

    @Test
    void aWrapperOfAnotherLibraryThatUnwrapsToATransactionAwareProxyKeepsTheLockOutOfTheCallersTransaction() {
        callersTransactionIsLeftAlone(pool -> wrapper(new TransactionAwareDataSourceProxy(pool), true));
    }

    @Test
    void aWrapperHidingATransactionAwareProxyFailsFastNamingTheDataSourceAndCommitsNothing() {
        DataSource pool = database().dataSource();
        JdbcLockRepository hidden = repositoryOn(wrapper(new TransactionAwareDataSourceProxy(pool), false));
        String marker = resource();
        String resource = resource();
        new TransactionTemplate(new DataSourceTransactionManager(pool)).executeWithoutResult(status -> {
            insertMarker(new JdbcTemplate(pool), marker);
            assertThatThrownBy(() -> hidden.acquire(resource, owner(), LONG))
                    .isInstanceOf(InvalidDataAccessApiUsageException.class)
                    .hasMessageContaining("autocommit off").hasMessageContaining("opaque wrapper");
            assertThat(visibleToOthers(marker)).as("the caller's work is still uncommitted").isFalse();
            status.setRollbackOnly();
        });
        assertThat(visibleToOthers(marker)).isFalse();
        assertThat(repository.find(resource)).isEmpty();
    }

    @Test
    void aConnectionHeldByASpringTransactionScopeIsRefusedEvenInAutocommit() {
        DataSource pool = database().dataSource();
        JdbcLockRepository hidden = repositoryOn(wrapper(new TransactionAwareDataSourceProxy(pool), false));
        TransactionTemplate supports = new TransactionTemplate(new DataSourceTransactionManager(pool));
        supports.setPropagationBehavior(TransactionDefinition.PROPAGATION_SUPPORTS);
        supports.executeWithoutResult(status -> {
            // Joins the scope's synchronization: the connection stays bound to this thread, in autocommit.
            new JdbcTemplate(pool).queryForObject("SELECT COUNT(*) FROM " + table, Integer.class);
            assertThatThrownBy(() -> hidden.find(resource()))
                    .isInstanceOf(InvalidDataAccessApiUsageException.class)
                    .hasMessageContaining("Spring-managed transaction scope").hasMessageContaining("opaque wrapper");
        });
    }

    @Test
    void aPoolHandingOutConnectionsWithAutocommitOffIsRefusedNamingIt() {
        try (HikariDataSource manualCommit = pool("manual-commit-pool", 1, config -> config.setAutoCommit(false))) {
            JdbcLockRepository refused = repositoryOn(manualCommit);
            assertThatThrownBy(refused::verifySchema).isInstanceOf(InvalidDataAccessApiUsageException.class)
                    .hasMessageContaining("manual-commit-pool").hasMessageContaining("autoCommit=true");
            assertThatThrownBy(() -> refused.acquire(resource(), owner(), LONG))
                    .isInstanceOf(InvalidDataAccessApiUsageException.class);
        }
    }

    /**
     * In the caller's transaction on the pool: inserts a row of the caller's own, then acquires through a
     * repository on the wrapped pool; the caller's row must stay uncommitted while the lock is visible to others at
     * once, and after the caller's rollback the row is gone and the lock is still held.
     */
    private void callersTransactionIsLeftAlone(UnaryOperator<DataSource> wrapping) {
        DataSource pool = database().dataSource();
        JdbcLockRepository wrapped = repositoryOn(wrapping.apply(pool));
        String marker = resource();
        String resource = resource();
        String owner = owner();
        new TransactionTemplate(new DataSourceTransactionManager(pool)).executeWithoutResult(status -> {
            insertMarker(new JdbcTemplate(pool), marker);
            assertThat(wrapped.acquire(resource, owner, LONG)).isPresent();
            assertThat(visibleToOthers(resource)).as("the lock is committed on its own").isTrue();
            assertThat(visibleToOthers(marker)).as("the caller's work is not committed by the lock call").isFalse();
            assertThat(wrapped.find(resource)).isPresent();
            status.setRollbackOnly();
        });
        assertThat(visibleToOthers(marker)).as("rolled back with the caller's transaction").isFalse();
        assertThat(repository.find(resource)).as("the caller's rollback does not erase the lock")
                .hasValueSatisfying(record -> assertThat(record.owner()).isEqualTo(owner));
        assertThat(wrapped.release(resource, owner)).isEqualTo(io.distlock.core.LockResult.APPLIED);
    }

    private JdbcLockRepository repositoryOn(DataSource dataSource) {
        return repositoryOn(dataSource, BOUND);
    }

    private JdbcLockRepository repositoryOn(DataSource dataSource, Duration statementTimeout) {
        return JdbcLockRepository.builder(dataSource).tableName(table.value()).dialect(database().dialect())
                .statementTimeout(statementTimeout).build();
    }

    /**
     * A data source of another library in front of a target, such as a tracing or metrics wrapper: it reveals what
     * it wraps through {@link DataSource#unwrap} only when {@code unwrappable}.
     */
    private static DataSource wrapper(DataSource target, boolean unwrappable) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "toString":
                            return unwrappable ? "unwrappable wrapper" : "opaque wrapper";
                        case "hashCode":
                            return System.identityHashCode(proxy);
                        case "equals":
                            return proxy == args[0];
                        case "isWrapperFor":
                            return ((Class<?>) args[0]).isInstance(proxy)
                                    || (unwrappable && target.isWrapperFor((Class<?>) args[0]));
                        case "unwrap":
                            if (((Class<?>) args[0]).isInstance(proxy)) {
                                return proxy;
                            }
                            if (unwrappable) {
                                return target.unwrap((Class<?>) args[0]);
                            }
                            throw new SQLException("opaque wrapper wraps nothing");
                        default:
                            try {
                                return method.invoke(target, args);
                            }
                            catch (InvocationTargetException ex) {
                                throw ex.getCause();
                            }
                    }
                });
    }

    private void insertMarker(JdbcTemplate jdbc, String marker) {
        Object now = database().dialect().instantParameter(Instant.now());
        jdbc.update("INSERT INTO " + table + " (resource, owner, token, acquired_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                marker, "caller", 0L, now, now);
    }

    private boolean visibleToOthers(String resource) {
        try (OutsideSession outside = OutsideSession.reading(database())) {
            return outside.hasRow(table, resource);
        }
        catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    // Column types the guarantees rest on

    @Test
    void theShippedScriptPassesTheSchemaCheck() {
        repository.verifySchema();
    }

    @Test
    void aLockTableWithColumnTypesThatBreakTheGuaranteesIsRefusedNamingTableColumnAndTypes() {
        LockTableName wrong = new LockTableName("dl_wrong_" + UUID.randomUUID().toString().substring(0, 8));
        WrongTable table = wronglyTypedTable(wrong.value());
        database().executeScript(table.script());
        try {
            JdbcLockRepository onWrong = JdbcLockRepository.builder(database().dataSource()).tableName(wrong.value())
                    .dialect(database().dialect()).build();
            assertThatThrownBy(onWrong::verifySchema).isInstanceOf(LockTableMissingException.class)
                    .hasMessageContaining("Lock table '" + wrong + "'")
                    .hasMessageContaining("break the lock's guarantees")
                    .satisfies(ex -> assertThat(ex.getMessage()).contains(table.messageParts()));
        }
        finally {
            database().dropLockTable(wrong);
        }
    }

    @Test
    void aLockTableWhoseResourceIsNotAUniqueKeyIsRefused() {
        LockTableName wrong = new LockTableName("dl_nokey_" + UUID.randomUUID().toString().substring(0, 8));
        String script = LockSchema.script(database().dialect(), wrong).replace(" NOT NULL PRIMARY KEY", " NOT NULL");
        assertThat(script).isNotEqualTo(LockSchema.script(database().dialect(), wrong));
        database().executeScript(script);
        try {
            JdbcLockRepository onWrong = JdbcLockRepository.builder(database().dataSource()).tableName(wrong.value())
                    .dialect(database().dialect()).build();
            assertThatThrownBy(onWrong::verifySchema).isInstanceOf(LockTableMissingException.class)
                    .hasMessageContaining("resource is '").hasMessageContaining("unique on its own");
        }
        finally {
            database().dropLockTable(wrong);
        }
    }

    // Helpers

    /**
     * Runs a call on another thread and waits for it at most the bound plus the margin and a little more; a call
     * still blocked then fails the test once the outside session lets it go.
     */
    private <T> Timed<T> timed(Callable<T> call, OutsideSession outside) throws Exception {
        long start = System.nanoTime();
        Future<T> future = calls.submit(call);
        try {
            T value = future.get(BOUND.plus(MARGIN).plusSeconds(2).toMillis(), TimeUnit.MILLISECONDS);
            return new Timed<>(value, null, Duration.ofNanos(System.nanoTime() - start));
        }
        catch (java.util.concurrent.ExecutionException ex) {
            return new Timed<>(null, ex.getCause(), Duration.ofNanos(System.nanoTime() - start));
        }
        catch (TimeoutException ex) {
            outside.close();
            future.cancel(true);
            return fail("still waiting after " + Duration.ofNanos(System.nanoTime() - start) + ": no time bound");
        }
    }

    /** What a call answered or threw, and how long it took. */
    private record Timed<T>(@Nullable T value, @Nullable Throwable failure, Duration elapsed) {
    }

    private void expireLongAgo(String resource) throws SQLException {
        try (Connection connection = database().dataSource().getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "UPDATE " + table + " SET expires_at = ? WHERE resource = ?")) {
            statement.setObject(1, database().dialect().instantParameter(Instant.parse("2000-01-01T00:00:00Z")));
            statement.setString(2, resource);
            assertThat(statement.executeUpdate()).isEqualTo(1);
        }
    }

    private String owner(String resource) throws SQLException {
        return column(resource, "owner", ResultSet::getString);
    }

    private long token(String resource) throws SQLException {
        return column(resource, "token", ResultSet::getLong);
    }

    private <T> T column(String resource, String column, ColumnReader<T> reader) throws SQLException {
        try (Connection connection = database().dataSource().getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "SELECT " + column + " FROM " + table + " WHERE resource = ?")) {
            statement.setString(1, resource);
            try (ResultSet rs = statement.executeQuery()) {
                assertThat(rs.next()).as("row of %s", resource).isTrue();
                return reader.read(rs, 1);
            }
        }
    }

    @FunctionalInterface
    private interface ColumnReader<T> {

        T read(ResultSet rs, int column) throws SQLException;
    }
}
