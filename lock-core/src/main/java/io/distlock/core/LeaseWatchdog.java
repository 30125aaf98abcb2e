package io.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.NestedExceptionUtils;


/**
 * Keeps leases alive while their work runs, on a few shared daemon threads. Each watched lease is renewed after a
 * fraction of its TTL; leases with the same TTL that are due in the same round, or soon after, are renewed together
 * in batched statements, so thousands of leases cost a handful of statements per round. A lease that renewal finds
 * gone is marked lost at once; after a database error, renewal is retried until the lease would have run out, and
 * then it is marked lost. {@link #unwatch} waits for an in-flight renewal of the lease, so a lease is never renewed
 * after its release.
 */
public final class LeaseWatchdog implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(LeaseWatchdog.class);

    private static final long MIN_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private static final long MAX_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final LockRepository repository;

    private final WatchdogSettings settings;

    private final ScheduledThreadPoolExecutor executor;

    private final Map<Lease, Entry> entries = new ConcurrentHashMap<>();

    private final Object scheduleMonitor = new Object();

    private long scheduledWakeNanos;

    private boolean wakeScheduled;

    /**
     * Creates a watchdog with its own daemon threads.
     *
     * @param repository where leases are renewed
     * @param settings thread count and renewal ratio
     */
    public LeaseWatchdog(LockRepository repository, WatchdogSettings settings) {
        this.repository = repository;
        this.settings = settings;
        AtomicInteger count = new AtomicInteger();
        this.executor = new ScheduledThreadPoolExecutor(settings.threads(), task -> {
            Thread thread = new Thread(task, "distlock-watchdog-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.executor.setRemoveOnCancelPolicy(true);
    }

    /**
     * Starts renewing a lease.
     *
     * @param lease the lease to keep alive
     * @param maxHold how long to keep renewing at most, counted from now
     */
    public void watch(Lease lease, Duration maxHold) {
        if (lease.isReleased()) {
            throw new IllegalStateException("Cannot keep a released lease alive: " + lease);
        }
        long interval = Math.max(1, (long) (lease.ttl().toNanos() * settings.renewRatio()));
        Entry entry = new Entry(lease, interval, System.nanoTime() + maxHold.toNanos());
        entry.nextRenewalNanos = lease.renewedAtNanos() + interval;
        if (entries.putIfAbsent(lease, entry) != null) {
            return;
        }
        if (lease.isReleased()) {
            // Released while this call ran: rounds skip released leases, and the entry goes now.
            unwatch(lease);
            return;
        }
        scheduleAt(entry.nextRenewalNanos);
    }

    /**
     * Stops renewing a lease, waiting for a renewal of it that is already running.
     *
     * @param lease the lease
     * @return whether the lease was being watched
     */
    public boolean unwatch(Lease lease) {
        Entry entry = entries.remove(lease);
        if (entry == null) {
            return false;
        }
        boolean interrupted = false;
        synchronized (entry) {
            entry.cancelled = true;
            while (entry.inFlight) {
                try {
                    entry.wait();
                }
                catch (InterruptedException ex) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
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
        try {
            renewDueLeases();
        }
        catch (RuntimeException ex) {
            logger.error("Lease watchdog round failed", ex);
        }
        finally {
            scheduleNext();
        }
    }

    private void renewDueLeases() {
        long now = System.nanoTime();
        Map<Duration, List<Entry>> due = new HashMap<>();
        Map<Duration, List<Entry>> soon = new HashMap<>();
        for (Entry entry : entries.values()) {
            synchronized (entry) {
                if (entry.cancelled || entry.inFlight) {
                    continue;
                }
                if (now - entry.stopAtNanos >= 0) {
                    entries.remove(entry.lease);
                    logger.info("Stopped renewing the lock on '{}' (owner {}): its maximum hold time passed; it "
                            + "expires by itself", entry.lease.resource(), entry.lease.owner());
                    continue;
                }
                long untilDue = entry.nextRenewalNanos - now;
                if (untilDue <= 0) {
                    due.computeIfAbsent(entry.lease.ttl(), ttl -> new ArrayList<>()).add(entry);
                }
                else if (untilDue <= entry.intervalNanos / 2) {
                    soon.computeIfAbsent(entry.lease.ttl(), ttl -> new ArrayList<>()).add(entry);
                }
            }
        }
        due.forEach((ttl, group) -> {
            // Leases that would be due within half an interval go along, so rounds stay aligned and batched.
            group.addAll(soon.getOrDefault(ttl, List.of()));
            renew(ttl, claim(group));
        });
    }

    private List<Entry> claim(List<Entry> group) {
        List<Entry> claimed = new ArrayList<>(group.size());
        for (Entry entry : group) {
            synchronized (entry) {
                if (!entry.cancelled && !entry.inFlight && !entry.lease.isReleased()) {
                    entry.inFlight = true;
                    claimed.add(entry);
                }
            }
        }
        return claimed;
    }

    private void renew(Duration ttl, List<Entry> group) {
        if (group.isEmpty()) {
            return;
        }
        Map<Entry, String> lost = new HashMap<>();
        long sentAt = System.nanoTime();
        try {
            Map<LeaseKey, LockRecord> renewed = repository.renewAll(group.stream().map(e -> e.lease.key()).toList(), ttl);
            for (Entry entry : group) {
                LockRecord record = renewed.get(entry.lease.key());
                if (record != null) {
                    entry.nextRenewalNanos = sentAt + entry.intervalNanos;
                    entry.lease.renewed(record, sentAt, ttl);
                }
                else {
                    lost.put(entry, "renewal found it expired or held by another owner");
                }
            }
        }
        catch (RuntimeException ex) {
            String cause = NestedExceptionUtils.getMostSpecificCause(ex).toString();
            logger.warn("Could not renew {} lease(s) with TTL {}; retrying until they run out: {}", group.size(), ttl,
                    cause);
            long now = System.nanoTime();
            for (Entry entry : group) {
                entry.lease.renewalFailed(ex);
                if (now - entry.lease.localDeadlineNanos() >= 0) {
                    lost.put(entry, "it ran out while renewal kept failing: " + cause);
                }
                else {
                    long retry = Math.min(MAX_RETRY_NANOS, Math.max(MIN_RETRY_NANOS, entry.intervalNanos / 4));
                    entry.nextRenewalNanos = Math.min(now + retry, entry.lease.localDeadlineNanos());
                }
            }
        }
        finally {
            for (Entry entry : group) {
                if (lost.containsKey(entry)) {
                    entries.remove(entry.lease, entry);
                }
                synchronized (entry) {
                    entry.inFlight = false;
                    entry.notifyAll();
                }
            }
        }
        // Told only after the round let go of its leases, so a listener may release or unwatch any lease.
        lost.forEach((entry, reason) -> {
            if (!entry.cancelled) {
                entry.lease.markLost(reason);
            }
        });
    }

    private void scheduleNext() {
        long next = Long.MAX_VALUE;
        boolean any = false;
        for (Entry entry : entries.values()) {
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

    /** A watched lease and when it is renewed next. */
    private static final class Entry {

        final Lease lease;

        final long intervalNanos;

        final long stopAtNanos;

        volatile long nextRenewalNanos;

        volatile boolean inFlight;

        volatile boolean cancelled;

        Entry(Lease lease, long intervalNanos, long stopAtNanos) {
            this.lease = lease;
            this.intervalNanos = intervalNanos;
            this.stopAtNanos = stopAtNanos;
        }
    }
}
