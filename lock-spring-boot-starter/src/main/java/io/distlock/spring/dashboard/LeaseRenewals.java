package io.distlock.spring.dashboard;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.distlock.core.Lease;
import io.distlock.core.LeaseKey;
import io.distlock.core.LockObserver;

/**
 * Counts the renewals of this instance's own leases, as its lock manager tells them; a lease is forgotten when it is
 * released or lost, so the count of entries never exceeds the leases held now. Other instances' leases are renewed
 * by their holders, which only they count.
 */
final class LeaseRenewals implements LockObserver {

    private final Map<LeaseKey, AtomicLong> renewals = new ConcurrentHashMap<>();

    @Override
    public void acquired(String name, Lease lease, Duration elapsed) {
        renewals.putIfAbsent(key(lease), new AtomicLong());
    }

    @Override
    public void renewed(Lease lease) {
        AtomicLong count = renewals.get(key(lease));
        if (count != null) {
            count.incrementAndGet();
        }
    }

    @Override
    public void lost(Lease lease, String reason) {
        renewals.remove(key(lease));
    }

    @Override
    public void released(Lease lease, Duration held) {
        renewals.remove(key(lease));
    }

    /**
     * The leases this instance holds and how often each was renewed.
     *
     * @return a snapshot
     */
    Map<LeaseKey, Long> counts() {
        Map<LeaseKey, Long> counts = new java.util.HashMap<>();
        renewals.forEach((key, count) -> counts.put(key, count.get()));
        return counts;
    }

    private static LeaseKey key(Lease lease) {
        return new LeaseKey(lease.resource(), lease.owner());
    }
}
