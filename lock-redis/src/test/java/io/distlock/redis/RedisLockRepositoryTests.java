package io.distlock.redis;

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
import io.distlock.redis.testsupport.CountingConnectionFactory;
import io.distlock.redis.testsupport.TestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * The lock repository contract on Redis: the store-neutral behaviour the JDBC stores show in their contract suite
 * (free, held, same owner, expired, the three release outcomes, renewal, minimum hold, exact batched renewal, thread
 * races, monotonic tokens), plus what the Redis layout adds: server time in every record, token counters that
 * outlive the locks, keys of one slot per resource, and bad input refused before any command.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisLockRepositoryTests {

    private static final Duration LONG = Duration.ofMinutes(5);

    private static final Duration SHORT = Duration.ofMillis(300);

    private String prefix;

    private CountingConnectionFactory counting;

    private RedisLockRepository repository;

    private StringRedisTemplate redis;

    @BeforeAll
    void createRepository() {
        TestRedis.assumeAvailable();
        prefix = TestRedis.newPrefix();
        counting = new CountingConnectionFactory(TestRedis.connectionFactory());
        repository = RedisLockRepository.builder(counting.factory()).keyPrefix(prefix).build();
        redis = TestRedis.template();
    }

    @AfterAll
    void deleteKeys() {
        if (prefix != null) {
            TestRedis.deleteKeys(prefix);
        }
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

    private long serverMillis() {
        return redis.execute((RedisCallback<Long>) RedisConnection::time);
    }

    private long expireTime(String key) {
        return redis.execute(RedisScript.of("return redis.call('PEXPIRETIME', KEYS[1])", Long.class), List.of(key));
    }

    @Test
    void freeLockIsAcquiredWithATokenAndAnExpiryOneTtlAheadOnTheServersClock() {
        String resource = resource();
        String owner = owner();
        long before = serverMillis();
        LockRecord record = repository.acquire(resource, owner, Duration.ofSeconds(30)).orElseThrow();
        long after = serverMillis();
        assertThat(record.resource()).isEqualTo(resource);
        assertThat(record.owner()).isEqualTo(owner);
        assertThat(record.token()).isPositive();
        assertThat(record.acquiredAt().toEpochMilli()).isBetween(before, after);
        assertThat(Duration.between(record.acquiredAt(), record.expiresAt())).isEqualTo(Duration.ofSeconds(30));
        assertThat(expireTime(repository.keys().lockKey(resource))).as("the key expires with the lease")
                .isEqualTo(record.expiresAt().toEpochMilli());
        assertThat(record.acquiredAt()).isCloseTo(Instant.now(), within(5, java.time.temporal.ChronoUnit.SECONDS));
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
    void releaseByTheOwnerDeletesTheLockButKeepsTheTokenCounter() {
        String resource = resource();
        String owner = owner();
        LockRecord first = repository.acquire(resource, owner, LONG).orElseThrow();
        assertThat(repository.release(resource, owner)).isEqualTo(LockResult.APPLIED);
        assertThat(repository.find(resource)).isEmpty();
        assertThat(redis.hasKey(repository.keys().lockKey(resource))).isFalse();
        assertThat(redis.opsForValue().get(repository.keys().tokenKey(resource)))
                .isEqualTo(Long.toString(first.token()));
        assertThat(redis.getExpire(repository.keys().tokenKey(resource))).as("the counter never expires")
                .isEqualTo(-1);
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
        assertThat(expireTime(repository.keys().lockKey(resource))).isEqualTo(kept.expiresAt().toEpochMilli());
        assertThat(repository.acquire(resource, owner(), LONG)).isEmpty();
        await().atMost(Duration.ofSeconds(10)).until(() -> repository.acquire(resource, owner(), LONG).isPresent());
        assertThat(repository.find(resource).orElseThrow().token()).isGreaterThan(record.token());
    }

    @Test
    void releaseWithAnElapsedMinimumHoldFreesTheLockAtOnce() throws InterruptedException {
        String resource = resource();
        String owner = owner();
        repository.acquire(resource, owner, LONG).orElseThrow();
        Thread.sleep(5);
        assertThat(repository.release(resource, owner, Duration.ofMillis(1))).isEqualTo(LockResult.APPLIED);
        assertThat(repository.find(resource)).isEmpty();
        assertThat(redis.hasKey(repository.keys().lockKey(resource))).isFalse();
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
        assertThat(expireTime(repository.keys().lockKey(resource)))
                .isEqualTo(renewed.record().expiresAt().toEpochMilli());
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
    void resourcesWithBracesAndPercentSignsGetKeysOfTheirOwnInOneSlot() {
        List<String> resources = List.of("a}b-" + UUID.randomUUID(), "}" + UUID.randomUUID(),
                "%7D" + UUID.randomUUID(), "{x}" + UUID.randomUUID(), "report:\uD83D\uDCC8:" + UUID.randomUUID());
        for (String resource : resources) {
            String lockKey = repository.keys().lockKey(resource);
            String tokenKey = repository.keys().tokenKey(resource);
            assertThat(ClusterSlotHashUtil.calculateSlot(lockKey)).as(lockKey)
                    .isEqualTo(ClusterSlotHashUtil.calculateSlot(tokenKey));
            assertThat(repository.keys().isLockKey(lockKey)).isTrue();
            String owner = owner();
            LockRecord record = repository.acquire(resource, owner, LONG).orElseThrow();
            assertThat(repository.find(resource)).contains(record);
            assertThat(repository.findAll()).contains(record);
        }
        assertThat(repository.keys().lockKey("a}b")).isNotEqualTo(repository.keys().lockKey("a%7Db"));
        assertThat(resources.stream().map(repository.keys()::lockKey).distinct()).hasSize(resources.size());
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
        Map<LeaseKey, LockRecord> renewed = repository.renewAll(List.of(new LeaseKey(mine, owner),
                new LeaseKey(alsoMine, owner), new LeaseKey(someoneElses, owner), new LeaseKey(expired, owner),
                new LeaseKey(resource(), owner)), LONG);
        assertThat(renewed.keySet()).containsExactlyInAnyOrder(new LeaseKey(mine, owner), new LeaseKey(alsoMine, owner));
        assertThat(renewed.values()).allSatisfy(r -> assertThat(r.expiresAt()).isAfter(Instant.now().plusSeconds(200)));
        assertThat(renewed.get(new LeaseKey(mine, owner)).token()).isEqualTo(first.token());
        assertThat(renewed.get(new LeaseKey(mine, owner)).acquiredAt()).isEqualTo(first.acquiredAt());
        assertThat(repository.find(mine)).contains(renewed.get(new LeaseKey(mine, owner)));
        assertThat(repository.find(someoneElses).orElseThrow().expiresAt()).isBefore(Instant.now().plusSeconds(20));
        assertThat(repository.find(expired)).isEmpty();
        assertThat(redis.hasKey(repository.keys().lockKey(expired))).as("renewal never revives a lock").isFalse();
    }

    @Test
    void renewAllSendsOneScriptPerBatchOfFiveHundred() {
        String owner = owner();
        int count = RedisLockRepository.MAX_BATCH + 7;
        List<LeaseKey> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String resource = resource();
            repository.acquire(resource, owner, Duration.ofSeconds(20)).orElseThrow();
            keys.add(new LeaseKey(resource, owner));
        }
        counting.reset();
        assertThat(repository.renewAll(keys, LONG)).hasSize(count);
        assertThat(counting.scripts()).isEqualTo(2);
        counting.reset();
        assertThat(repository.renewAll(List.of(), LONG)).isEmpty();
        assertThat(counting.scripts()).isZero();
    }

    @Test
    void deleteExpiredDeletesNothingBecauseKeysExpireByThemselves() {
        String resource = resource();
        LockRecord record = repository.acquire(resource, owner(), SHORT).orElseThrow();
        awaitExpiry(resource);
        assertThat(repository.deleteExpired(Duration.ofHours(1))).isZero();
        assertThat(redis.hasKey(repository.keys().lockKey(resource))).isFalse();
        assertThat(repository.acquire(resource, owner(), LONG).orElseThrow().token()).isGreaterThan(record.token());
        assertThatIllegalArgumentException().isThrownBy(() -> repository.deleteExpired(Duration.ofSeconds(5)))
                .withMessage("retention must be at least PT1M, got PT5S");
    }

    @Test
    void badInputFailsBeforeAnyCommandWithTheMessagesOfTheJdbcStore() {
        counting.reset();
        assertThatIllegalArgumentException().isThrownBy(() -> repository.acquire(null, owner(), LONG))
                .withMessage("resource must not be null");
        assertThatIllegalArgumentException().isThrownBy(() -> repository.acquire("  ", owner(), LONG))
                .withMessage("resource must not be blank, got '  '");
        assertThatIllegalArgumentException().isThrownBy(() -> repository.acquire("x".repeat(256), owner(), LONG))
                .withMessageStartingWith("resource must be at most 255 characters, got 256");
        assertThatIllegalArgumentException().isThrownBy(() -> repository.acquire("job\n42", owner(), LONG))
                .withMessage("resource must not contain control characters, found U+000A at index 3 of 'job?42'");
        assertThatIllegalArgumentException().isThrownBy(() -> repository.acquire("job\uD800", owner(), LONG))
                .withMessageStartingWith("resource must be valid Unicode");
        assertThatIllegalArgumentException().isThrownBy(() -> repository.acquire(resource(), null, LONG))
                .withMessage("owner must not be null");
        assertThatIllegalArgumentException().isThrownBy(() -> repository.acquire(resource(), owner(), Duration.ZERO))
                .withMessage("ttl must be at least PT0.001S, got PT0S");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> repository.acquire(resource(), owner(), Duration.ofSeconds(-5)))
                .withMessage("ttl must be at least PT0.001S, got PT-5S");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> repository.acquire(resource(), owner(), Duration.ofDays(400)))
                .withMessage("ttl must be at most PT24H, got PT9600H");
        assertThatIllegalArgumentException().isThrownBy(() -> repository.acquire(resource(), owner(), null))
                .withMessage("ttl must not be null");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> repository.acquire(resource(), owner(), Duration.ofNanos(1_500_000)))
                .withMessage("ttl must be a whole number of milliseconds, got PT0.0015S");
        assertThatIllegalArgumentException().isThrownBy(() -> repository.renew(resource(), " ", LONG))
                .withMessage("owner must not be blank, got ' '");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> repository.release(resource(), owner(), Duration.ofMillis(-1)))
                .withMessage("minHold must be at least PT0S, got PT-0.001S");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> repository.release(resource(), owner(), Duration.ofDays(2)))
                .withMessage("minHold must be at most PT24H, got PT48H");
        assertThatIllegalArgumentException().isThrownBy(() -> repository.find(""))
                .withMessage("resource must not be blank, got ''");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> repository.renewAll(List.of(new LeaseKey(resource(), owner())), Duration.ZERO))
                .withMessage("ttl must be at least PT0.001S, got PT0S");
        assertThat(counting.connections()).as("connections used by refused calls").isZero();
        assertThat(counting.scripts()).isZero();
    }

    @Test
    void aKeyOfTheLayoutWithAnotherTypeFailsWithAMessageNamingThePrefix() {
        String resource = resource();
        redis.opsForValue().set(repository.keys().lockKey(resource), "someone else's value");
        try {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> repository.acquire(resource, owner(), LONG))
                    .isInstanceOf(org.springframework.dao.InvalidDataAccessResourceUsageException.class)
                    .hasMessageContaining("Redis key '" + repository.keys().lockKey(resource)
                            + "' holds a string, not a hash")
                    .hasMessageContaining("prefix '" + prefix + "'")
                    .hasMessageContaining("distributed-lock.redis.key-prefix");
            assertThat(redis.opsForValue().get(repository.keys().lockKey(resource))).isEqualTo("someone else's value");
            assertThat(redis.hasKey(repository.keys().tokenKey(resource))).as("nothing written").isFalse();
            org.assertj.core.api.Assertions.assertThatThrownBy(repository::verifySchema)
                    .isInstanceOf(RedisLockStoreException.class)
                    .hasMessageContaining("holds a string, not a hash");
        }
        finally {
            redis.delete(repository.keys().lockKey(resource));
        }
        repository.verifySchema();
    }

    @Test
    void sixtyFourThreadsRacingForABrandNewLockGiveExactlyOneWinnerAndNoErrors() throws Exception {
        for (int round = 0; round < 5; round++) {
            String resource = resource();
            List<Optional<LockRecord>> results = race(64, () -> repository.acquire(resource, owner(), LONG));
            assertThat(results.stream().filter(Optional::isPresent)).hasSize(1);
            LockRecord winner = results.stream().flatMap(Optional::stream).findFirst().orElseThrow();
            assertThat(repository.find(resource)).contains(winner);
            assertThat(winner.token()).as("one token drawn").isEqualTo(
                    Long.parseLong(redis.opsForValue().get(repository.keys().tokenKey(resource))));
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
            LockRecord record = repository.acquire(resource, owner, letItExpire ? Duration.ofMillis(50) : LONG)
                    .orElseThrow();
            assertThat(record.token()).isGreaterThan(previous);
            assertThat(repository.acquire(resource, owner, LONG).orElseThrow().token()).as("same owner")
                    .isEqualTo(record.token());
            previous = record.token();
            if (letItExpire) {
                repository.renew(resource, owner, Duration.ofMillis(50));
                awaitExpiry(resource);
            }
            else {
                assertThat(repository.release(resource, owner, i % 2 == 0 ? Duration.ZERO : Duration.ofMillis(1)))
                        .isEqualTo(LockResult.APPLIED);
                awaitExpiry(resource);
            }
        }
    }

    @Test
    void keyPrefixesAreChecked() {
        assertThat(new RedisLockKeys("app:locks:").lockKey("job:1")).isEqualTo("app:locks:{job:1}:lock");
        assertThat(new RedisLockKeys("app:locks:").tokenKey("job:1")).isEqualTo("app:locks:{job:1}:token");
        assertThatIllegalArgumentException().isThrownBy(() -> new RedisLockKeys("")).withMessageContaining("empty");
        assertThatIllegalArgumentException().isThrownBy(() -> new RedisLockKeys("a{b}:"))
                .withMessageContaining("must not contain braces");
        assertThatIllegalArgumentException().isThrownBy(() -> new RedisLockKeys("a b"))
                .withMessageContaining("whitespace");
        assertThatIllegalArgumentException().isThrownBy(() -> new RedisLockKeys("p".repeat(65)))
                .withMessageContaining("at most 64");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> RedisLockRepository.builder(counting.factory()).maxTtl(Duration.ZERO))
                .withMessage("maxTtl must be at least PT0.001S, got PT0S");
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
}
