package io.distlock.benchmarks;

import java.util.concurrent.TimeUnit;

import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * Redisson: {@code RLock.tryLock(0, 30 s)} (no wait, the cycle's lease, no watchdog: as distlock's cycle asks) then
 * {@code unlock()}, on the client the nodes share. A Redisson lock belongs to a client and thread, so the benchmark's
 * threads are owners of their own on one client.
 */
final class RLockClient implements LockClient {

    private final RedissonClient client;

    RLockClient(RedissonClient client) {
        this.client = client;
    }

    /**
     * The lock's key.
     *
     * @param resource the resource
     * @return its key under the benchmark's prefix
     */
    static String name(String resource) {
        return LockStore.REDIS_PREFIX + "redisson:" + resource;
    }

    @Override
    public boolean cycle(String resource) {
        RLock lock = client.getLock(name(resource));
        boolean acquired;
        try {
            acquired = lock.tryLock(0, TTL.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while taking " + resource, ex);
        }
        if (acquired) {
            lock.unlock();
        }
        return acquired;
    }
}
