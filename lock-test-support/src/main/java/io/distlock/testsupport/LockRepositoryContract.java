package io.distlock.testsupport;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
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

import io.distlock.core.BatchRenewal;
import io.distlock.core.ForcedRelease;
import io.distlock.core.LeaseKey;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.LockResult;
import io.distlock.core.RenewResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * The behaviour every lock store must show, written once against the {@link LockRepository} SPI: the basic cases
 * (free, held, same owner, expired, the three release outcomes, minimum hold, renewal, exact batched renewal) and
 * the library's guarantees (atomic decisions under real thread races, the store's clock, owner-checked renew and
 * release, monotonic fencing tokens). Each store runs it in a subclass that opens the store, says what its clock
 * reads and how many leases one renewal batch holds, and adds what only that store does.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class LockRepositoryContract {

    /** A lease that outlasts any test. */
    protected static final Duration LONG = Duration.ofMinutes(5);

    /** A lease that a test waits out. */
    protected static final Duration SHORT = Duration.ofMillis(300);

    private LockRepository repository;

    /**
     * Opens the store under test, once before the tests.
     *
     * @return its repository
     */
    protected abstract LockRepository openStore();

    /** Removes what {@link #openStore()} made, once after the tests, even when it did not finish. */
    protected abstract void closeStore();

    /**
     * The store's clock, the one that decides expiry and stamps records.
     *
     * @return the store's time now
     */
    protected abstract Instant storeTime();

    /**
     * How many leases one renewal batch of the store holds at most.
     *
     * @return the batch size
     */
    protected abstract int maxRenewBatch();

    @BeforeAll
    void openRepository() {
        repository = openStore();
    }

    @AfterAll
    void closeRepository() {
        closeStore();
    }

    /**
     * The store under test.
     *
     * @return what {@link #openStore()} returned
     */
    protected LockRepository repository() {
        return repository;
    }

    /** The store's batch renewal, which every store under this contract has. */
    private Map<LeaseKey, LockRecord> renewAll(List<LeaseKey> leases, Duration ttl) {
        return repository.capability(BatchRenewal.class).orElseThrow().renewAll(leases, ttl);
    }

    /** The store's forced release, which every store under this contract has. */
    private LockResult forceRelease(String resource, long token) {
        return repository.capability(ForcedRelease.class).orElseThrow().forceRelease(resource, token);
    }

    /**
     * A resource name of its own.
     *
     * @return the name
     */
    protected static String resource() {
        return "job:" + UUID.randomUUID();
    }

    /**
     * An owner token of its own.
     *
     * @return the owner
     */
    protected static String owner() {
        return "owner-" + UUID.randomUUID();
    }

    /**
     * Waits until the store no longer shows a live lock on the resource.
     *
     * @param resource the resource
     */
    protected void awaitExpiry(String resource) {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> repository.find(resource).isEmpty());
    }

    /**
     * Acquires locks on new resources for one owner.
     *
     * @param owner the owner
     * @param count how many
     * @return the leases' keys, in acquisition order
     */
    protected List<LeaseKey> acquireMany(String owner, int count) {
        List<LeaseKey> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String resource = resource();
            repository.acquire(resource, owner, Duration.ofSeconds(20)).orElseThrow();
            keys.add(new LeaseKey(resource, owner));
        }
        return keys;
    }

    @Test
    void freeLockIsAcquiredWithATokenAndAnExpiryOneTtlAheadOnTheStoresClock() {
        String resource = resource();
        String owner = owner();
        Instant before = storeTime();
        LockRecord record = repository.acquire(resource, owner, Duration.ofSeconds(30)).orElseThrow();
        Instant after = storeTime();
        assertThat(record.resource()).isEqualTo(resource);
        assertThat(record.owner()).isEqualTo(owner);
        assertThat(record.token()).isPositive();
        assertThat(record.acquiredAt()).as("stamped by the store's clock")
                .isBetween(before.truncatedTo(ChronoUnit.MILLIS), after.plusMillis(1));
        assertThat(Duration.between(record.acquiredAt(), record.expiresAt()))
                .isBetween(Duration.ofSeconds(30).minusMillis(50), Duration.ofSeconds(30).plusMillis(50));
        assertThat(record.acquiredAt()).isCloseTo(Instant.now(), within(5, ChronoUnit.SECONDS));
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
        assertThat(repository.find(resource)).contains(again);
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
    }

    @Test
    void aForcedReleaseOfTheTokenSeenFreesTheLockWhoeverHoldsItAndTheNextOwnerGetsALargerToken() {
        String resource = resource();
        LockRecord held = repository.acquire(resource, owner(), LONG).orElseThrow();
        assertThat(forceRelease(resource, held.token())).isEqualTo(LockResult.APPLIED);
        assertThat(repository.find(resource)).isEmpty();
        assertThat(repository.findAll()).noneMatch(r -> r.resource().equals(resource));
        LockRecord next = repository.acquire(resource, owner(), LONG).orElseThrow();
        assertThat(next.token()).isGreaterThan(held.token());
    }

    @Test
    void afterAForcedReleaseTheOldOwnerCanNeitherRenewNorReleaseAndAcquiresAgainOnlyWithALargerToken() {
        String resource = resource();
        String owner = owner();
        LockRecord held = repository.acquire(resource, owner, LONG).orElseThrow();
        assertThat(forceRelease(resource, held.token())).isEqualTo(LockResult.APPLIED);
        assertThat(repository.renew(resource, owner, LONG).status()).isEqualTo(LockResult.NOT_FOUND);
        assertThat(renewAll(List.of(new LeaseKey(resource, owner)), LONG)).isEmpty();
        assertThat(repository.release(resource, owner)).isEqualTo(LockResult.NOT_FOUND);
        LockRecord again = repository.acquire(resource, owner, LONG).orElseThrow();
        assertThat(again.token()).as("a new acquisition, not a renewal of the ended one").isGreaterThan(held.token());
    }

    @Test
    void aForcedReleaseOfATokenNoLongerHeldChangesNothing() {
        String resource = resource();
        LockRecord first = repository.acquire(resource, owner(), LONG).orElseThrow();
        assertThat(repository.release(resource, first.owner())).isEqualTo(LockResult.APPLIED);
        LockRecord second = repository.acquire(resource, owner(), LONG).orElseThrow();
        assertThat(forceRelease(resource, first.token())).isEqualTo(LockResult.FORBIDDEN);
        assertThat(repository.find(resource)).contains(second);
    }

    @Test
    void aForcedReleaseWithoutALiveLockAnswersNotFound() {
        String resource = resource();
        assertThat(forceRelease(resource, 1)).isEqualTo(LockResult.NOT_FOUND);
        LockRecord expired = repository.acquire(resource, owner(), SHORT).orElseThrow();
        awaitExpiry(resource);
        assertThat(forceRelease(resource, expired.token())).isEqualTo(LockResult.NOT_FOUND);
    }

    @Test
    void aForcedReleaseEndsALockKeptPastItsReleaseByAMinimumHold() {
        String resource = resource();
        String owner = owner();
        LockRecord held = repository.acquire(resource, owner, LONG).orElseThrow();
        assertThat(repository.release(resource, owner, LONG)).isEqualTo(LockResult.APPLIED);
        assertThat(repository.find(resource)).as("kept by its minimum hold").isPresent();
        assertThat(forceRelease(resource, held.token())).isEqualTo(LockResult.APPLIED);
        assertThat(repository.find(resource)).isEmpty();
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
        assertThat(repository.find(resource).orElseThrow().token()).isGreaterThan(record.token());
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
    void findAllListsOnlyLiveLocksOrderedByResource() {
        String live = resource();
        String alsoLive = "a-" + live;
        String expired = resource();
        LockRecord first = repository.acquire(live, owner(), LONG).orElseThrow();
        LockRecord second = repository.acquire(alsoLive, owner(), LONG).orElseThrow();
        repository.acquire(expired, owner(), SHORT).orElseThrow();
        awaitExpiry(expired);
        List<LockRecord> all = repository.findAll();
        assertThat(all).contains(first, second).noneMatch(r -> r.resource().equals(expired));
        assertThat(all).extracting(LockRecord::resource).isSorted();
    }

    @Test
    void renewAllRenewsExactlyTheLiveLeasesOfTheirOwners() {
        String mine = resource();
        String alsoMine = resource();
        String someoneElses = resource();
        String expired = resource();
        String owner = owner();
        LockRecord first = repository.acquire(mine, owner, Duration.ofSeconds(10)).orElseThrow();
        repository.acquire(alsoMine, owner, Duration.ofSeconds(10)).orElseThrow();
        repository.acquire(someoneElses, owner(), Duration.ofSeconds(10)).orElseThrow();
        repository.acquire(expired, owner, SHORT).orElseThrow();
        awaitExpiry(expired);
        Map<LeaseKey, LockRecord> renewed = renewAll(List.of(new LeaseKey(mine, owner),
                new LeaseKey(alsoMine, owner), new LeaseKey(someoneElses, owner), new LeaseKey(expired, owner),
                new LeaseKey(resource(), owner)), LONG);
        assertThat(renewed.keySet()).containsExactlyInAnyOrder(new LeaseKey(mine, owner), new LeaseKey(alsoMine, owner));
        assertThat(renewed.values()).allSatisfy(r -> assertThat(r.expiresAt()).isAfter(Instant.now().plusSeconds(200)));
        assertThat(renewed.get(new LeaseKey(mine, owner)).token()).isEqualTo(first.token());
        assertThat(renewed.get(new LeaseKey(mine, owner)).acquiredAt()).isEqualTo(first.acquiredAt());
        assertThat(repository.find(mine)).contains(renewed.get(new LeaseKey(mine, owner)));
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
        assertThat(renewAll(keys, LONG)).containsOnlyKeys(keys);
        String first = resource();
        String second = resource();
        String firstOwner = owner();
        String secondOwner = owner();
        repository.acquire(first, firstOwner, Duration.ofSeconds(10)).orElseThrow();
        repository.acquire(second, secondOwner, Duration.ofSeconds(10)).orElseThrow();
        assertThat(renewAll(List.of(new LeaseKey(first, secondOwner), new LeaseKey(second, firstOwner)),
                LONG)).as("crossed pairs renew nothing").isEmpty();
        assertThat(repository.find(first).orElseThrow().expiresAt()).isBefore(Instant.now().plusSeconds(20));
    }

    @Test
    void renewAllHandlesMoreLeasesThanOneBatch() {
        int count = maxRenewBatch() + 7;
        assertThat(renewAll(acquireMany(owner(), count), LONG)).hasSize(count);
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
    void releaseExpiryAndReacquireByAlternatingOwnersGetStrictlyIncreasingTokens() {
        String resource = resource();
        long previous = 0;
        for (int i = 0; i < 20; i++) {
            String owner = owner();
            boolean letItExpire = i % 4 == 3;
            // Long enough that a busy machine still answers the acquire within the lease (a store refuses a lease
            // its acquire outlived), short enough to expire quickly.
            LockRecord record = repository.acquire(resource, owner, letItExpire ? Duration.ofMillis(400) : LONG)
                    .orElseThrow();
            assertThat(record.token()).isGreaterThan(previous);
            assertThat(repository.acquire(resource, owner, LONG).orElseThrow().token()).as("same owner")
                    .isEqualTo(record.token());
            previous = record.token();
            if (letItExpire) {
                repository.renew(resource, owner, Duration.ofMillis(400));
            }
            else {
                assertThat(repository.release(resource, owner, i % 2 == 0 ? Duration.ZERO : Duration.ofMillis(1)))
                        .isEqualTo(LockResult.APPLIED);
            }
            awaitExpiry(resource);
        }
    }

    /**
     * Runs a task on many threads at once, released together by a latch.
     *
     * @param threads how many threads
     * @param task what each runs
     * @param <T> what the task returns
     * @return each thread's result
     * @throws Exception when a task fails or the race does not finish in time
     */
    protected static <T> List<T> race(int threads, Callable<T> task) throws Exception {
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
}
