package io.distlock.benchmarks;

import java.util.concurrent.TimeUnit;

import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson in the handover scenario, the anchor: {@code RLock.tryLock(maxWait)} (the lease kept alive by Redisson's
 * own watchdog) and {@code unlock()}. A waiter subscribes to the lock's channel and is woken by the message that the
 * release publishes, in this process or any other, so one client serves all threads.
 */
final class RedissonHandover implements HandoverSubject {

    private final RedissonClient client;

    private final HandoverLock lock;

    RedissonHandover() {
        Config config = new Config();
        // Few threads: the machine has two cores and the lock needs no more.
        config.setThreads(2).setNettyThreads(4);
        config.useSingleServer().setAddress(RedisServer.url()).setConnectionMinimumIdleSize(4)
                .setConnectionPoolSize(8).setSubscriptionConnectionMinimumIdleSize(1);
        this.client = Redisson.create(config);
        this.lock = (resource, maxWait) -> {
            RLock rlock = client.getLock("distlock-bench:" + resource);
            return rlock.tryLock(maxWait.toMillis(), TimeUnit.MILLISECONDS) ? rlock::unlock : null;
        };
    }

    @Override
    public HandoverLock lockFor(int thread) {
        return lock;
    }

    @Override
    public void close() {
        client.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
