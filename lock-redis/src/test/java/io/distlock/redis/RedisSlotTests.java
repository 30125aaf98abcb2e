package io.distlock.redis;

import io.distlock.core.LockRepository;
import io.distlock.redis.testsupport.TestRedis;
import io.distlock.testsupport.SlotStoreContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Once-per-slot runs on the real Redis: the job's last claimed slot and its runs live beside its lock, under the
 * same hash tag, and every claim is one script.
 */
class RedisSlotTests extends SlotStoreContract {

    private String prefix;

    private RedisLockRepository repository;

    @BeforeAll
    void connect() {
        TestRedis.assumeAvailable();
        prefix = TestRedis.newPrefix();
        repository = RedisLockRepository.builder(TestRedis.connectionFactory()).keyPrefix(prefix).build();
    }

    @AfterAll
    void deleteKeys() {
        if (prefix != null) {
            TestRedis.deleteKeys(prefix);
        }
    }

    @Override
    protected LockRepository repository() {
        return repository;
    }
}
