package io.distlock.core.jdbc;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.distlock.core.LeaseKey;
import io.distlock.core.LockRecord;
import io.distlock.core.LockResult;
import io.distlock.core.RenewResult;
import io.distlock.core.TimeSource;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The behaviour every database must show, written once: the basic cases (free, held, same owner, expired, the three
 * release outcomes, renewal) and the library's guarantees (atomic decisions under real thread races, database
 * time, owner-checked renew and release, monotonic fencing tokens, rows updated in place). Each database runs it in a
 * subclass of a few lines, in each time mode it supports.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LockRepositoryContractTests {

    private static final Duration LONG = Duration.ofMinutes(5);

    private static final Duration SHORT = Duration.ofMillis(300);

    private LockTableName table;

    private JdbcLockRepository repository;

    protected abstract TestDatabase database();

    protected TimeSource timeSource() {
        return TimeSource.DATABASE;
    }

    /**
     * Creates the lock table the suite runs on.
     *
     * @return its name
     */
    protected LockTableName createLockTable() {
        return database().createLockTable();
    }

    @BeforeAll
    void createTable() {
        table = createLockTable();
        repository = repository(Clock.systemUTC());
    }

    /**
     * Drops what {@link #createLockTable()} made.
     *
     * @param table the lock table
     */
    protected void dropLockTable(LockTableName table) {
        database().dropLockTable(table);
    }

    @AfterAll
    void dropTable() {
        if (table != null) {
            dropLockTable(table);
        }
    }

    private JdbcLockRepository repository(Clock clock) {
        return JdbcLockRepository.builder(database().dataSource()).tableName(table.value())
                .dialect(database().dialect()).timeSource(timeSource()).clock(clock).build();
    }

    private static String resource() {
        return "job:" + UUID.randomUUID();
    }

    private static String owner() {
        return "owner-" + UUID.randomUUID();
    }

    private void awaitExpiry(String resource) {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> repository.find(resource).isEmpty());
    }

    @Test
    void freeLockIsAcquiredWithATokenAndAnExpiryOneTtlAhead() {
        String resource = resource();
        String owner = owner();
        LockRecord record = repository.acquire(resource, owner, Duration.ofSeconds(30)).orElseThrow();
        assertThat(record.resource()).isEqualTo(resource);
        assertThat(record.owner()).isEqualTo(owner);
        assertThat(record.token()).isPositive();
        assertThat(Duration.between(record.acquiredAt(), record.expiresAt()))
                .isBetween(Duration.ofSeconds(30).minusMillis(50), Duration.ofSeconds(30).plusMillis(50));
        assertThat(record.acquiredAt()).isCloseTo(Instant.now(), org.assertj.core.api.Assertions.within(5,
                java.time.temporal.ChronoUnit.SECONDS));
        assertThat(repository.find(resource)).contains(record);
    }

    @Test
    void heldLockIsNotAcquiredByAnotherOwnerAndStaysUnchanged() {
        String resource = resource();
        LockRecord held = repository.acquire(resource, owner(), LONG).orElseThrow();
        assertThat(repository.acquire(resource, owner(), LONG)).isEmpty();
        assertThat(repository.find(resource)).contains(held);
    }

    @Test
    void sameOwnerAcquiringAgainRenewsWithTheSameToken() {
        String resource = resource();
        String owner = owner();
        LockRecord first = repository.acquire(resource, owner, Duration.ofSeconds(10)).orElseThrow();
        LockRecord again = repository.acquire(resource, owner, LONG).orElseThrow();
        assertThat(again.token()).isEqualTo(first.token());
        assertThat(again.acquiredAt()).isEqualTo(first.acquiredAt());
        assertThat(again.expiresAt()).isAfter(first.expiresAt());
    }

    @Test
    void expiredLockIsInvisibleAndClaimedByANewOwnerWithALargerToken() {
        String resource = resource();
        LockRecord first = repository.acquire(resource, owner(), SHORT).orElseThrow();
        awaitExpiry(resource);
        assertThat(repository.findAll()).noneMatch(r -> r.resource().equals(resource));
        String second = owner();
        LockRecord claimed = repository.acquire(resource, second, LONG).orElseThrow();
        assertThat(claimed.owner()).isEqualTo(second);
        assertThat(claimed.token()).isGreaterThan(first.token());
        assertThat(claimed.acquiredAt()).isAfter(first.acquiredAt());
        assertThat(rowCount(resource)).as("the row is updated in place").isEqualTo(1);
    }

    @Test
    void releaseByTheOwnerFreesTheLockForAnotherOwnerWithALargerToken() {
        String resource = resource();
        String owner = owner();
        LockRecord first = repository.acquire(resource, owner, LONG).orElseThrow();
        assertThat(repository.release(resource, owner)).isEqualTo(LockResult.APPLIED);
        assertThat(repository.find(resource)).isEmpty();
        LockRecord second = repository.acquire(resource, owner(), LONG).orElseThrow();
        assertThat(second.token()).isGreaterThan(first.token());
        assertThat(rowCount(resource)).isEqualTo(1);
    }

    @Test
    void releaseOfAnAbsentLockIsNotFound() {
        assertThat(repository.release(resource(), owner())).isEqualTo(LockResult.NOT_FOUND);
    }

    @Test
    void releaseTwiceIsNotFoundTheSecondTime() {
        String resource = resource();
        String owner = owner();
        repository.acquire(resource, owner, LONG).orElseThrow();
        assertThat(repository.release(resource, owner)).isEqualTo(LockResult.APPLIED);
        assertThat(repository.release(resource, owner)).isEqualTo(LockResult.NOT_FOUND);
    }

    @Test
    void releaseByAnotherOwnerIsForbiddenAndChangesNothing() {
        String resource = resource();
        LockRecord held = repository.acquire(resource, owner(), LONG).orElseThrow();
        assertThat(repository.release(resource, owner())).isEqualTo(LockResult.FORBIDDEN);
        assertThat(repository.find(resource)).contains(held);
    }

    @Test
    void releaseAfterExpiryIsNotFound() {
        String resource = resource();
        String owner = owner();
        repository.acquire(resource, owner, SHORT).orElseThrow();
        awaitExpiry(resource);
        assertThat(repository.release(resource, owner)).isEqualTo(LockResult.NOT_FOUND);
    }

    @Test
    void releaseWithMinimumHoldKeepsTheLockUntilThenAndFreesItAfterwards() {
        String resource = resource();
        String owner = owner();
        LockRecord record = repository.acquire(resource, owner, LONG).orElseThrow();
        assertThat(repository.release(resource, owner, Duration.ofMillis(800))).isEqualTo(LockResult.APPLIED);
        LockRecord kept = repository.find(resource).orElseThrow();
        assertThat(kept.expiresAt()).isEqualTo(record.acquiredAt().plusMillis(800));
        assertThat(repository.acquire(resource, owner(), LONG)).isEmpty();
        await().atMost(Duration.ofSeconds(10)).until(() -> repository.acquire(resource, owner(), LONG).isPresent());
    }

    @Test
    void releaseWithAnElapsedMinimumHoldFreesTheLockAtOnce() {
        String resource = resource();
        String owner = owner();
        repository.acquire(resource, owner, LONG).orElseThrow();
        assertThat(repository.release(resource, owner, Duration.ofMillis(1))).isEqualTo(LockResult.APPLIED);
        await().atMost(Duration.ofSeconds(2)).until(() -> repository.find(resource).isEmpty());
    }

    @Test
    void renewByTheOwnerMovesTheExpiryAndKeepsTheToken() {
        String resource = resource();
        String owner = owner();
        LockRecord first = repository.acquire(resource, owner, Duration.ofSeconds(10)).orElseThrow();
        RenewResult renewed = repository.renew(resource, owner, LONG);
        assertThat(renewed.status()).isEqualTo(LockResult.APPLIED);
        assertThat(renewed.record().token()).isEqualTo(first.token());
        assertThat(renewed.record().acquiredAt()).isEqualTo(first.acquiredAt());
        assertThat(renewed.record().expiresAt()).isAfter(first.expiresAt().plus(Duration.ofMinutes(4)));
        assertThat(repository.find(resource)).contains(renewed.record());
    }

    @Test
    void renewByAnotherOwnerIsForbiddenAndChangesNothing() {
        String resource = resource();
        LockRecord held = repository.acquire(resource, owner(), LONG).orElseThrow();
        assertThat(repository.renew(resource, owner(), LONG).status()).isEqualTo(LockResult.FORBIDDEN);
        assertThat(repository.find(resource)).contains(held);
    }

    @Test
    void renewAfterExpiryOrOfAnAbsentLockIsNotFound() {
        String resource = resource();
        String owner = owner();
        repository.acquire(resource, owner, SHORT).orElseThrow();
        awaitExpiry(resource);
        assertThat(repository.renew(resource, owner, LONG).status()).isEqualTo(LockResult.NOT_FOUND);
        assertThat(repository.find(resource)).isEmpty();
        assertThat(repository.renew(resource(), owner, LONG).status()).isEqualTo(LockResult.NOT_FOUND);
    }

    @Test
    void staleHolderCannotRenewOrReleaseAfterAnotherOwnerClaimedTheLock() {
        String resource = resource();
        String stale = owner();
        LockRecord first = repository.acquire(resource, stale, SHORT).orElseThrow();
        awaitExpiry(resource);
        String fresh = owner();
        LockRecord current = repository.acquire(resource, fresh, LONG).orElseThrow();
        assertThat(repository.renew(resource, stale, LONG).status()).isEqualTo(LockResult.FORBIDDEN);
        assertThat(repository.release(resource, stale)).isEqualTo(LockResult.FORBIDDEN);
        assertThat(repository.acquire(resource, stale, LONG)).isEmpty();
        assertThat(repository.find(resource)).contains(current);
        assertThat(current.token()).isGreaterThan(first.token());
    }

    @Test
    void findAllListsOnlyLiveLocks() {
        String live = resource();
        String expired = resource();
        repository.acquire(live, owner(), LONG).orElseThrow();
        repository.acquire(expired, owner(), SHORT).orElseThrow();
        awaitExpiry(expired);
        List<String> resources = repository.findAll().stream().map(LockRecord::resource).toList();
        assertThat(resources).contains(live).doesNotContain(expired);
    }

    @Test
    void renewAllRenewsExactlyTheLiveLeasesOfTheirOwners() {
        String mine = resource();
        String alsoMine = resource();
        String someoneElses = resource();
        String expired = resource();
        String owner = owner();
        repository.acquire(mine, owner, Duration.ofSeconds(10)).orElseThrow();
        repository.acquire(alsoMine, owner, Duration.ofSeconds(10)).orElseThrow();
        repository.acquire(someoneElses, owner(), Duration.ofSeconds(10)).orElseThrow();
        repository.acquire(expired, owner, SHORT).orElseThrow();
        awaitExpiry(expired);
        Map<LeaseKey, LockRecord> renewed = repository.renewAll(List.of(new LeaseKey(mine, owner),
                new LeaseKey(alsoMine, owner), new LeaseKey(someoneElses, owner), new LeaseKey(expired, owner),
                new LeaseKey(resource(), owner)), LONG);
        assertThat(renewed.keySet()).containsExactlyInAnyOrder(new LeaseKey(mine, owner), new LeaseKey(alsoMine, owner));
        assertThat(renewed.values()).allSatisfy(r -> assertThat(r.expiresAt()).isAfter(Instant.now().plusSeconds(200)));
        assertThat(repository.find(someoneElses).orElseThrow().expiresAt()).isBefore(Instant.now().plusSeconds(20));
        assertThat(repository.find(expired)).isEmpty();
    }

    @Test
    void renewAllPairsEachResourceWithItsOwnOwnerWhateverCharactersTheyHold() {
        String owner = owner();
        List<String> resources = List.of("job:a,b", "job:\"quoted\"", "job:{braces}", "job:back\\slash", "NULL",
                " job: spaced ", "job:ünïcødé-" + UUID.randomUUID());
        List<LeaseKey> keys = new ArrayList<>();
        for (String name : resources) {
            String resource = name + ":" + UUID.randomUUID();
            repository.acquire(resource, owner, Duration.ofSeconds(10)).orElseThrow();
            keys.add(new LeaseKey(resource, owner));
        }
        assertThat(repository.renewAll(keys, LONG)).containsOnlyKeys(keys);
        String first = resource();
        String second = resource();
        String firstOwner = owner();
        String secondOwner = owner();
        repository.acquire(first, firstOwner, Duration.ofSeconds(10)).orElseThrow();
        repository.acquire(second, secondOwner, Duration.ofSeconds(10)).orElseThrow();
        assertThat(repository.renewAll(List.of(new LeaseKey(first, secondOwner), new LeaseKey(second, firstOwner)),
                LONG)).as("crossed pairs renew nothing").isEmpty();
        assertThat(repository.find(first).orElseThrow().expiresAt()).isBefore(Instant.now().plusSeconds(20));
    }

    @Test
    void renewAllHandlesMoreLeasesThanOneBatch() {
        String owner = owner();
        int count = database().dialect().maxRenewBatch() + 7;
        List<LeaseKey> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String resource = resource();
            repository.acquire(resource, owner, Duration.ofSeconds(20)).orElseThrow();
            keys.add(new LeaseKey(resource, owner));
        }
        assertThat(repository.renewAll(keys, LONG)).hasSize(count);
    }

    @Test
    void deleteExpiredRemovesOnlyRowsExpiredLongerThanTheRetentionAndTokensStayMonotonic() throws Exception {
        String gone = resource();
        String recent = resource();
        String live = resource();
        LockRecord old = repository.acquire(gone, owner(), LONG).orElseThrow();
        repository.acquire(recent, owner(), SHORT).orElseThrow();
        repository.acquire(live, owner(), LONG).orElseThrow();
        awaitExpiry(recent);
        expireLongAgo(gone);
        assertThat(repository.deleteExpired(Duration.ofHours(1))).isPositive();
        assertThat(rowCount(gone)).isZero();
        assertThat(rowCount(recent)).as("expired less than the retention ago").isEqualTo(1);
        assertThat(rowCount(live)).isEqualTo(1);
        LockRecord again = repository.acquire(gone, owner(), LONG).orElseThrow();
        assertThat(again.token()).isGreaterThan(old.token());
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> repository.deleteExpired(Duration.ofSeconds(5)))
                .withMessage("retention must be at least PT1M, got PT5S");
    }

    private void expireLongAgo(String resource) throws java.sql.SQLException {
        try (var connection = database().dataSource().getConnection();
                var statement = connection.prepareStatement(
                        "UPDATE " + table + " SET expires_at = ? WHERE resource = ?")) {
            statement.setObject(1, database().dialect().instantParameter(Instant.parse("2000-01-01T00:00:00Z")));
            statement.setString(2, resource);
            assertThat(statement.executeUpdate()).isEqualTo(1);
        }
    }

    @Test
    void sixtyFourThreadsRacingForABrandNewLockGiveExactlyOneWinnerAndNoErrors() throws Exception {
        for (int round = 0; round < 5; round++) {
            String resource = resource();
            List<Optional<LockRecord>> results = race(64, () -> repository.acquire(resource, owner(), LONG));
            assertThat(results.stream().filter(Optional::isPresent)).hasSize(1);
            LockRecord winner = results.stream().flatMap(Optional::stream).findFirst().orElseThrow();
            assertThat(repository.find(resource)).contains(winner);
        }
    }

    @Test
    void sixteenThreadsClaimingOneExpiredLockGiveExactlyOneWinnerWithALargerToken() throws Exception {
        for (int round = 0; round < 5; round++) {
            String resource = resource();
            LockRecord expired = repository.acquire(resource, owner(), SHORT).orElseThrow();
            awaitExpiry(resource);
            List<Optional<LockRecord>> results = race(16, () -> repository.acquire(resource, owner(), LONG));
            List<LockRecord> winners = results.stream().flatMap(Optional::stream).toList();
            assertThat(winners).hasSize(1);
            assertThat(winners.get(0).token()).isGreaterThan(expired.token());
            assertThat(repository.find(resource)).contains(winners.get(0));
        }
    }

    @Test
    void releaseAndReacquireByAlternatingOwnersIssueStrictlyIncreasingTokens() {
        String resource = resource();
        long previous = 0;
        for (int i = 0; i < 20; i++) {
            String owner = owner();
            LockRecord record = repository.acquire(resource, owner, LONG).orElseThrow();
            assertThat(record.token()).isGreaterThan(previous);
            previous = record.token();
            assertThat(repository.release(resource, owner)).isEqualTo(LockResult.APPLIED);
        }
    }

    @Test
    void applicationClocksSkewedByMinutesDecideNothingInDatabaseTimeMode() {
        String resource = resource();
        JdbcLockRepository ahead = repository(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(7)));
        JdbcLockRepository behind = repository(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-7)));
        LockRecord held = behind.acquire(resource, owner(), Duration.ofMinutes(1)).orElseThrow();
        Optional<LockRecord> second = ahead.acquire(resource, owner(), Duration.ofMinutes(1));
        if (timeSource() == TimeSource.DATABASE) {
            assertThat(second).as("database time: the skewed clock cannot see the lock as expired").isEmpty();
            assertThat(ahead.find(resource)).contains(held);
        }
        else {
            assertThat(second).as("application time: a clock 14 minutes ahead takes a live lock — why it is "
                    + "not the default").isPresent();
        }
    }

    private <T> List<T> race(int threads, Callable<T> task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch ready = new CountDownLatch(threads);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return task.call();
                }));
            }
            assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();
            go.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get(60, TimeUnit.SECONDS));
            }
            return results;
        }
        finally {
            pool.shutdownNow();
        }
    }

    private int rowCount(String resource) {
        try (var connection = database().dataSource().getConnection();
                var statement = connection.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE resource = ?")) {
            statement.setString(1, resource);
            try (var rs = statement.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
        catch (java.sql.SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
