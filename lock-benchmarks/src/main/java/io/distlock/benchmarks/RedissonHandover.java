package io.distlock.benchmarks;

import java.util.concurrent.TimeUnit;

import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * Redisson in the handover scenario, the anchor: {@code RLock.tryLock(maxWait)} (the lease kept alive by Redisson's
 * own watchdog) and {@code unlock()}. A waiter subscribes to the lock's channel and is woken by the message that the
 * release publishes, in this process or any other, so one client serves all threads.
 */
final class RedissonHandover implements HandoverSubject {

    private final HandoverLock lock;

    RedissonHandover(RedissonClient client) {
        this.lock = (resource, maxWait) -> {
            RLock rlock = client.getLock(RLockClient.name(resource));
            return rlock.tryLock(maxWait.toMillis(), TimeUnit.MILLISECONDS) ? rlock::unlock : null;
        };
    }

    @Override
    public HandoverLock lockFor(int thread) {
        return lock;
    }

    /** Nothing to close: the client is the store's. */
    @Override
    public void close() {
    }
}
