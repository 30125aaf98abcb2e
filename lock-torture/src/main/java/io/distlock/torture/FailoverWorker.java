package io.distlock.torture;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import io.distlock.core.LockRecord;
import io.distlock.core.LockResult;
import io.distlock.redis.RedisLockRepository;

import org.springframework.dao.DataAccessException;

/**
 * One worker of the Redis failover run, on connections of its own that follow the Sentinel's failovers: it takes a
 * random lock of the run, and while it holds it writes to the fenced ledger with its token and renews the lease every
 * third of its TTL (the watchdog's default), then releases it; all it was told goes to the {@link FailoverHistory}. An exception is "not acquired" or "lost":
 * the worker stops believing and carries on.
 */
final class FailoverWorker implements Runnable {

    private final String name;

    private final RedisLockRepository locks;

    private final RedisFencedLedger ledger;

    private final FailoverHistory history;

    private final List<String> resources;

    private final Duration ttl;

    private final AtomicBoolean stop;

    private long acquisitions;

    FailoverWorker(String name, RedisLockRepository locks, RedisFencedLedger ledger, FailoverHistory history,
            List<String> resources, Duration ttl, AtomicBoolean stop) {
        this.name = name;
        this.locks = locks;
        this.ledger = ledger;
        this.history = history;
        this.resources = resources;
        this.ttl = ttl;
        this.stop = stop;
    }

    @Override
    public void run() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!stop.get()) {
            String resource = resources.get(random.nextInt(resources.size()));
            String owner = name + "-" + (++acquisitions);
            long sent = System.nanoTime();
            Optional<LockRecord> acquired;
            try {
                acquired = locks.acquire(resource, owner, ttl);
            }
            catch (DataAccessException ex) {
                acquired = Optional.empty();
            }
            if (acquired.isEmpty()) {
                pause(random.nextLong(20, 60));
                continue;
            }
            FailoverHistory.Holding holding = history.acquired(resource, owner, acquired.get().token(),
                    System.nanoTime(), sent + ttl.toNanos());
            hold(holding, random.nextLong(ttl.toMillis() / 20, ttl.toMillis() / 2));
            holding.end(System.nanoTime());
            try {
                locks.release(resource, owner, Duration.ZERO);
            }
            catch (DataAccessException ex) {
                // The lease expires by its TTL.
            }
        }
    }

    /** Writes and renews for {@code millis}, for as long as the holder may believe it holds the lock. */
    private void hold(FailoverHistory.Holding holding, long millis) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long end = System.nanoTime() + millis * 1_000_000;
        long renewEvery = ttl.toNanos() / 3;
        long nextRenewal = System.nanoTime() + renewEvery;
        while (!stop.get() && System.nanoTime() < end) {
            long now = System.nanoTime();
            if (!holding.believedAt(now)) {
                return;
            }
            long before = history.highestAcceptedBefore(holding.resource);
            try {
                if (ledger.write(holding.resource, holding.token)) {
                    history.accepted(holding.resource, holding.token, before);
                }
            }
            catch (DataAccessException ex) {
                // Not accepted, as far as the holder knows.
            }
            if (System.nanoTime() >= nextRenewal) {
                long sent = System.nanoTime();
                try {
                    if (locks.renew(holding.resource, holding.owner, ttl).status() == LockResult.APPLIED) {
                        holding.extend(sent + ttl.toNanos());
                    }
                    else {
                        holding.end(System.nanoTime());
                        return;
                    }
                }
                catch (DataAccessException ex) {
                    // Unknown: the holder keeps believing only until the end it had.
                }
                nextRenewal = System.nanoTime() + renewEvery;
            }
            pause(random.nextLong(30, 120));
        }
    }

    private void pause(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            stop.set(true);
        }
    }
}
