package io.distlock.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.distlock.core.LeaseKey;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.LockResult;
import io.distlock.redis.testsupport.CountingConnectionFactory;
import io.distlock.redis.testsupport.TestRedis;
import io.distlock.testsupport.LockRepositoryContract;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The lock repository contract on Redis, plus what the Redis layout adds: the lock key expires with the lease and is
 * gone once the lease is, token counters outlive the locks and are drawn once per acquisition, keys of one slot per
 * resource, renewal in one script per batch, and bad input refused before any command.
 */
class RedisLockRepositoryTests extends LockRepositoryContract {

    private String prefix;

    private CountingConnectionFactory counting;

    private RedisLockRepository repository;

    private StringRedisTemplate redis;

    @Override
    protected LockRepository openStore() {
        TestRedis.assumeAvailable();
        prefix = TestRedis.newPrefix();
        counting = new CountingConnectionFactory(TestRedis.connectionFactory());
        repository = RedisLockRepository.builder(counting.factory()).keyPrefix(prefix).build();
        redis = TestRedis.template();
        return repository;
    }

    @Override
    protected void closeStore() {
        if (prefix != null) {
            TestRedis.deleteKeys(prefix);
        }
    }

    @Override
    protected Instant storeTime() {
        return Instant.ofEpochMilli(redis.execute((RedisCallback<Long>) RedisConnection::time));
    }

    @Override
    protected int maxRenewBatch() {
        return RedisLockRepository.MAX_BATCH;
    }

    private long expireTime(String key) {
        return redis.execute(RedisScript.of("return redis.call('PEXPIRETIME', KEYS[1])", Long.class), List.of(key));
    }

    private long tokenCounter(String resource) {
        return Long.parseLong(redis.opsForValue().get(repository.keys().tokenKey(resource)));
    }

    @Test
    void theLockKeyExpiresWhenTheLeaseEndsOnTheServersClock() {
        String resource = resource();
        String lockKey = repository.keys().lockKey(resource);
        String owner = owner();
        LockRecord acquired = repository.acquire(resource, owner, Duration.ofSeconds(30)).orElseThrow();
        assertThat(Duration.between(acquired.acquiredAt(), acquired.expiresAt())).isEqualTo(Duration.ofSeconds(30));
        assertThat(expireTime(lockKey)).as("acquired").isEqualTo(acquired.expiresAt().toEpochMilli());
        LockRecord renewed = repository.renew(resource, owner, LONG).record();
        assertThat(expireTime(lockKey)).as("renewed").isEqualTo(renewed.expiresAt().toEpochMilli());
        assertThat(repository.release(resource, owner, Duration.ofMinutes(1))).isEqualTo(LockResult.APPLIED);
        assertThat(expireTime(lockKey)).as("released with a minimum hold")
                .isEqualTo(acquired.acquiredAt().plus(Duration.ofMinutes(1)).toEpochMilli());
    }

    @Test
    void releaseAndExpiryRemoveTheLockKeyAndRenewalNeverRecreatesIt() {
        String released = resource();
        String owner = owner();
        LockRecord record = repository.acquire(released, owner, LONG).orElseThrow();
        await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(1))
                .until(() -> storeTime().isAfter(record.acquiredAt().plusMillis(1)));
        assertThat(repository.release(released, owner, Duration.ofMillis(1))).isEqualTo(LockResult.APPLIED);
        assertThat(redis.hasKey(repository.keys().lockKey(released))).as("elapsed minimum hold").isFalse();
        String expired = resource();
        repository.acquire(expired, owner, SHORT).orElseThrow();
        awaitExpiry(expired);
        assertThat(repository.renew(expired, owner, LONG).status()).isEqualTo(LockResult.NOT_FOUND);
        assertThat(repository.renewAll(List.of(new LeaseKey(expired, owner)), LONG)).isEmpty();
        assertThat(redis.hasKey(repository.keys().lockKey(expired))).as("renewal never revives a lock").isFalse();
    }

    @Test
    void releaseByTheOwnerDeletesTheLockButKeepsTheTokenCounter() {
        String resource = resource();
        String owner = owner();
        LockRecord first = repository.acquire(resource, owner, LONG).orElseThrow();
        assertThat(repository.release(resource, owner)).isEqualTo(LockResult.APPLIED);
        assertThat(redis.hasKey(repository.keys().lockKey(resource))).isFalse();
        assertThat(tokenCounter(resource)).isEqualTo(first.token());
        assertThat(redis.getExpire(repository.keys().tokenKey(resource))).as("the counter never expires")
                .isEqualTo(-1);
    }

    @Test
    void theLosersOfARaceDrawNoToken() throws Exception {
        String resource = resource();
        List<Optional<LockRecord>> results = race(64, () -> repository.acquire(resource, owner(), LONG));
        LockRecord winner = results.stream().flatMap(Optional::stream).findFirst().orElseThrow();
        assertThat(winner.token()).as("one token drawn").isEqualTo(tokenCounter(resource));
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
    void renewAllSendsOneScriptPerBatchOfFiveHundred() {
        List<LeaseKey> keys = acquireMany(owner(), RedisLockRepository.MAX_BATCH + 7);
        counting.reset();
        assertThat(repository.renewAll(keys, LONG)).hasSize(keys.size());
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
}
