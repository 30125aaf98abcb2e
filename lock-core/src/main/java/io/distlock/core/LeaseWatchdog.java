package io.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;



/**
 * Keeps leases alive while their work runs, on a few shared daemon threads. Each watched lease is renewed after a
 * fraction of its TTL; leases with the same TTL that are due in the same round, or soon after, are renewed together
 * in batched statements, so thousands of leases cost a handful of statements per round. A lease missing from a
 * batch's answer is renewed alone before it counts as lost (a store may skip a row another session holds locked); a
 * lease that renewal finds gone is marked lost at once; after a database error, renewal is retried until the lease
 * would have run out, and then it is marked lost. While a round is held up (a statement waiting for its connection or
 * for a row lock), a lease whose TTL runs out meanwhile is told lost by a clock of its own, not when the round ends.
 * A release never waits for a renewal in flight: a renewal that confirms a lease released meanwhile releases it
 * again, so the lock does not stay held by a renewal that reached the database after the release. Leases reach it
 * through {@link LockManager}; share one watchdog between managers with {@link LockManager.Builder#watchdog}.
 */
public final class LeaseWatchdog implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(LeaseWatchdog.class);

    private final WatchdogSettings settings;

    private final ScheduledThreadPoolExecutor executor;

    /** Tells leases lost whose TTL runs out while a round is held up. */
    private final HeldUpRoundWatch heldUp;

    private final Map<Renewable, WatchedLease> entries = new ConcurrentHashMap<>();

    private final Object scheduleMonitor = new Object();

    private final RenewalReservation reservation;

    private final RenewalRound round;

    private long scheduledWakeNanos;

    private boolean wakeScheduled;

    /**
     * Creates a watchdog with its own daemon threads.
     *
     * @param repository where leases are renewed
     * @param settings thread count and renewal ratio
     */
    public LeaseWatchdog(LockRepository repository, WatchdogSettings settings) {
        this.settings = settings;
        AtomicInteger count = new AtomicInteger();
        this.executor = new ScheduledThreadPoolExecutor(settings.threads(), task -> {
            Thread thread = new Thread(task, "distlock-watchdog-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.executor.setRemoveOnCancelPolicy(true);
        this.heldUp = new HeldUpRoundWatch(entries.values(), settings, this::forget);
        this.reservation = new RenewalReservation(repository, () -> !entries.isEmpty());
        this.round = new RenewalRound(repository, settings, new RenewalRound.Watched() {
            @Override
            public List<WatchedLease> claim(List<WatchedLease> group) {
                return LeaseWatchdog.this.claim(group);
            }

            @Override
            public void forget(WatchedLease entry) {
                LeaseWatchdog.this.forget(entry);
            }
        });
    }

    /** Stops watching a lease found lost. */
    private void forget(WatchedLease entry) {
        if (entries.remove(entry.lease, entry)) {
            updateReservation();
        }
    }

    /**
     * Starts renewing a lease; a lease already watched keeps its schedule.
     *
     * @param lease the lease to keep alive
     * @param maxHold how long to keep renewing at most, counted from now
     */
    void watch(Renewable lease, Duration maxHold) {
        WatchedLease entry = new WatchedLease(lease, maxHold, System.nanoTime() + maxHold.toNanos());
        entry.nextRenewalNanos = lease.renewedAtNanos() + intervalNanos(lease);
        if (entries.putIfAbsent(lease, entry) == null) {
            reservation.takeNow();
            scheduleAt(entry.nextRenewalNanos);
        }
    }

    /**
     * Stops renewing a lease, without waiting for a renewal of it in flight: that renewal is owner-checked, and when it
     * confirms a lease released meanwhile, the lease releases itself again ({@link Renewable#renewed}).
     *
     * @param lease the lease
     * @return whether the lease was being watched
     */
    boolean unwatch(Renewable lease) {
        WatchedLease entry = entries.remove(lease);
        if (entry == null) {
            return false;
        }
        updateReservation();
        synchronized (entry) {
            entry.cancelled = true;
        }
        return true;
    }

    /**
     * How many leases are being kept alive.
     *
     * @return the count
     */
    public int watchedCount() {
        return entries.size();
    }

    /**
     * Stops the watchdog's threads. Watched leases are no longer renewed and run out by their TTL.
     */
    @Override
    public void close() {
        executor.shutdownNow();
        heldUp.close();
        reservation.end();
    }

    private void scheduleAt(long wakeNanos) {
        synchronized (scheduleMonitor) {
            if (executor.isShutdown() || (wakeScheduled && wakeNanos - scheduledWakeNanos >= 0)) {
                return;
            }
            wakeScheduled = true;
            scheduledWakeNanos = wakeNanos;
            executor.schedule(this::tick, Math.max(0, wakeNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }

    private void tick() {
        synchronized (scheduleMonitor) {
            wakeScheduled = false;
        }
        ScheduledFuture<?> deadlineCheck = heldUp.duringRound();
        try {
            renewDueLeases();
        }
        catch (RuntimeException ex) {
            logger.error("Lease watchdog round failed", ex);
        }
        finally {
            if (deadlineCheck != null) {
                deadlineCheck.cancel(false);
            }
            scheduleNext();
        }
    }

    private void renewDueLeases() {
        long now = System.nanoTime();
        Map<Duration, List<WatchedLease>> due = new HashMap<>();
        Map<Duration, List<WatchedLease>> soon = new HashMap<>();
        for (WatchedLease entry : entries.values()) {
            synchronized (entry) {
                if (entry.cancelled || entry.inFlight) {
                    continue;
                }
                if (now - entry.stopAtNanos >= 0) {
                    entries.remove(entry.lease);
                    updateReservation();
                    logger.info("Stopped renewing the lock on '{}' (owner {}): its maximum hold time of {} passed; it "
                            + "runs out by itself, and its holder is told then", entry.lease.key().resource(),
                            OwnerFingerprint.of(entry.lease.key().owner()), entry.maxHold);
                    tellLossWhenRunOut(entry.lease, entry.maxHold);
                    continue;
                }
                long untilDue = entry.nextRenewalNanos - now;
                if (untilDue <= 0) {
                    due.computeIfAbsent(entry.lease.ttl(), ttl -> new ArrayList<>()).add(entry);
                }
                else if (untilDue <= intervalNanos(entry.lease) / 2) {
                    soon.computeIfAbsent(entry.lease.ttl(), ttl -> new ArrayList<>()).add(entry);
                }
            }
        }
        due.forEach((ttl, group) -> {
            // Leases that would be due within half an interval go along, so rounds stay aligned and batched.
            group.addAll(soon.getOrDefault(ttl, List.of()));
            round.renew(ttl, claim(group));
        });
    }

    private List<WatchedLease> claim(List<WatchedLease> group) {
        List<WatchedLease> claimed = new ArrayList<>(group.size());
        long now = System.nanoTime();
        for (WatchedLease entry : group) {
            synchronized (entry) {
                if (entry.cancelled || entry.inFlight || entry.lease.isReleased()) {
                    continue;
                }
                if (entry.lease.tryLockForRenewal()) {
                    entry.inFlight = true;
                    claimed.add(entry);
                }
                else {
                    // Busy with a manual renewal: it sits this round out and is tried again shortly, not at once.
                    entry.nextRenewalNanos = now + settings.retryNanos(entry.lease.ttl());
                }
            }
        }
        return claimed;
    }

    /**
     * Marks a lease lost once it runs out after the watchdog stopped renewing it at its maximum hold time, unless it
     * was released or renewed by hand meanwhile.
     */
    private void tellLossWhenRunOut(Renewable lease, Duration maxHold) {
        long delay = lease.localDeadlineNanos() - System.nanoTime();
        if (lease.isReleased()) {
            return;
        }
        if (delay > 0) {
            try {
                executor.schedule(() -> tellLossWhenRunOut(lease, maxHold), delay, TimeUnit.NANOSECONDS);
            }
            catch (RejectedExecutionException ex) {
                // The watchdog was closed: the lease counts as lost locally once its TTL passes.
            }
            return;
        }
        lease.lost("its maximum hold time of " + maxHold + " passed, so the watchdog stopped renewing it, and it ran "
                + "out");
    }

    private void scheduleNext() {
        long next = Long.MAX_VALUE;
        boolean any = false;
        for (WatchedLease entry : entries.values()) {
            if (entry.inFlight) {
                continue; // the round renewing it schedules what follows
            }
            long candidate = Math.min(entry.nextRenewalNanos, entry.stopAtNanos);
            if (!any || candidate - next < 0) {
                next = candidate;
                any = true;
            }
        }
        if (any) {
            scheduleAt(next);
        }
    }

    /**
     * Gives back the store's reservation for renewals, on a watchdog thread, once no lease is kept alive any more.
     */
    private void updateReservation() {
        if (!entries.isEmpty()) {
            return;
        }
        try {
            executor.execute(reservation::update);
        }
        catch (RejectedExecutionException ex) {
            // Closed: close() gives it back.
        }
    }

    private long intervalNanos(Renewable lease) {
        return settings.intervalNanos(lease.ttl());
    }
}
