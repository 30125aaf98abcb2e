package io.distlock.core;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The leases one {@link LockManager} handed out, and what they see of it ({@link LeaseHost}): the repository, the
 * watchdog's service, and the one place their events are counted and told.
 */
final class LeaseRegistry implements LeaseHost {

    private final LockRepository repository;

    private final LeaseWatchdog watchdog;

    private final LockEvents events;

    private final Set<Lease> active = ConcurrentHashMap.newKeySet();

    private final AtomicLong lost = new AtomicLong();

    private final ReleaseSignals releases;

    private final GiveBacks giveBacks;

    LeaseRegistry(LockRepository repository, LeaseWatchdog watchdog, LockEvents events) {
        this.repository = repository;
        this.releases = new ReleaseSignals(repository);
        this.giveBacks = new GiveBacks(repository);
        this.watchdog = watchdog;
        this.events = events;
    }

    LockEvents events() {
        return events;
    }

    ReleaseSignals releases() {
        return releases;
    }

    /** Gives back, in the background, what an acquire that got no answer may have taken ({@link GiveBacks}). */
    GiveBacks giveBacks() {
        return giveBacks;
    }

    void acquired(String label, Lease lease, Duration elapsed) {
        active.add(lease);
        events.acquired(label, lease, elapsed);
    }

    List<Lease> activeLeases() {
        // Leases dropped without a release leave here once their TTL has run out.
        active.removeIf(lease -> lease.isReleased() || lease.isLost());
        return active.stream().sorted(Comparator.comparing(Lease::resource)).toList();
    }

    long lostCount() {
        return lost.get();
    }

    @Override
    public LockRepository repository() {
        return repository;
    }

    @Override
    public void keepAlive(Renewable renewable, Duration maxHold) {
        watchdog.watch(renewable, maxHold);
    }

    @Override
    public void stopKeepingAlive(Renewable renewable) {
        watchdog.unwatch(renewable);
    }

    @Override
    public void renewed(Lease lease) {
        events.renewed(lease);
    }

    @Override
    public void renewalFailed(Lease lease, RuntimeException error) {
        events.renewalFailed(lease, error);
    }

    @Override
    public void lost(Lease lease, String reason, List<LeaseLostListener> leaseListeners) {
        active.remove(lease);
        lost.incrementAndGet();
        events.lost(lease, reason, leaseListeners);
    }

    @Override
    public void releasing(Lease lease) {
        releases.releasing(lease.resource());
    }

    @Override
    public void released(Lease lease, Duration held) {
        active.remove(lease);
        releases.released(lease.resource());
        events.released(lease, held);
    }
}
