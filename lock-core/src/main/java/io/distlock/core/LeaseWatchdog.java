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

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.dao.QueryTimeoutException;


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

    private static final long MIN_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private static final long MAX_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final LockRepository repository;

    /** The store's batch renewal, or {@code null} when each lease is renewed on its own. */
    private final @Nullable BatchRenewal batch;

    private final WatchdogSettings settings;

    private final ScheduledThreadPoolExecutor executor;

    /** Tells leases lost whose TTL runs out while a round is held up: a thread the rounds never block. */
    private final ScheduledThreadPoolExecutor deadlines;

    private final Map<Renewable, Entry> entries = new ConcurrentHashMap<>();

    private final Object scheduleMonitor = new Object();

    private final RenewalReservation reservation;

    /** Renewals that fail, told once and then summarised while an outage lasts. */
    private final FailureLog renewalFailures = new FailureLog(logger);

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
        this.batch = repository.capability(BatchRenewal.class).orElse(null);
        this.settings = settings;
        AtomicInteger count = new AtomicInteger();
        this.executor = new ScheduledThreadPoolExecutor(settings.threads(), task -> {
            Thread thread = new Thread(task, "distlock-watchdog-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.executor.setRemoveOnCancelPolicy(true);
        this.deadlines = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "distlock-watchdog-deadlines");
            thread.setDaemon(true);
            return thread;
        });
        this.deadlines.setRemoveOnCancelPolicy(true);
        this.reservation = new RenewalReservation(repository, () -> !entries.isEmpty());
    }

    /**
     * Starts renewing a lease; a lease already watched keeps its schedule.
     *
     * @param lease the lease to keep alive
     * @param maxHold how long to keep renewing at most, counted from now
     */
    void watch(Renewable lease, Duration maxHold) {
        Entry entry = new Entry(lease, maxHold, System.nanoTime() + maxHold.toNanos());
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
        Entry entry = entries.remove(lease);
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
        deadlines.shutdownNow();
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
        ScheduledFuture<?> deadlineCheck = scheduleDeadlineCheck();
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

    /**
     * While this round runs, tells a lease lost once its TTL ran out on this machine's clock: a round held up by a
     * statement that waits (for a connection, for a row lock) must not hold back the news that the holder can no
     * longer trust its lease.
     *
     * @return the check, to cancel when the round ends; {@code null} when no lease is watched
     */
    private @Nullable ScheduledFuture<?> scheduleDeadlineCheck() {
        long earliest = 0;
        boolean any = false;
        for (Entry entry : entries.values()) {
            long deadline = toldLostAt(entry);
            if (!any || deadline - earliest < 0) {
                earliest = deadline;
                any = true;
            }
        }
        if (!any) {
            return null;
        }
        try {
            // Not before the round had a moment of its own: a lease it finds gone is told with the better reason.
            long period = MAX_RETRY_NANOS / 10;
            return deadlines.scheduleWithFixedDelay(this::tellRunOutLeases,
                    Math.max(period, earliest - System.nanoTime()), period, TimeUnit.NANOSECONDS);
        }
        catch (RejectedExecutionException ex) {
            return null; // closed
        }
    }

    /**
     * When a lease whose renewal is held up is told lost: half a renewal interval after it ran out on this machine's
     * clock, so that a renewal that is merely late (a busy machine) still counts, and well within one interval.
     */
    private long toldLostAt(Entry entry) {
        return entry.lease.localDeadlineNanos() + intervalNanos(entry.lease) / 2;
    }

    private void tellRunOutLeases() {
        long now = System.nanoTime();
        for (Entry entry : entries.values()) {
            if (now - toldLostAt(entry) < 0 || entry.lease.isReleased()) {
                continue;
            }
            synchronized (entry) {
                if (entry.cancelled) {
                    continue;
                }
                entry.cancelled = true;
            }
            if (entries.remove(entry.lease, entry)) {
                updateReservation();
            }
            String failure = entry.lastFailure;
            entry.lease.lost(failure != null ? "it ran out while renewal kept failing: " + failure
                    : "its TTL of " + entry.lease.ttl() + " ran out while its renewal was held up");
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
            renew(ttl, claim(group));
        });
    }

    private List<Entry> claim(List<Entry> group) {
        List<Entry> claimed = new ArrayList<>(group.size());
        long now = System.nanoTime();
        for (Entry entry : group) {
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
                    entry.nextRenewalNanos = now + retryNanos(entry.lease.ttl());
                }
            }
        }
        return claimed;
    }

    private void renew(Duration ttl, List<Entry> group) {
        RuntimeException timedOut = renewClaimed(ttl, group);
        if (timedOut == null) {
            return;
        }
        // One stuck row must not cost the others their leases, nor their releases a wait for the stuck one: each is
        // claimed again and renewed on its own this round, and a lease released meanwhile sits it out.
        logger.warn("Renewing {} with TTL {} together timed out ({}); renewing each on its own", describe(group), ttl,
                NestedExceptionUtils.getMostSpecificCause(timedOut).toString());
        for (Entry entry : group) {
            renewClaimed(ttl, claim(List.of(entry)));
        }
    }

    /**
     * Renews claimed leases together and lets go of them.
     *
     * @return the failure when several leases timed out together (none of them renewed, none marked), else null
     */
    private @Nullable RuntimeException renewClaimed(Duration ttl, List<Entry> group) {
        if (group.isEmpty()) {
            return null;
        }
        Map<Entry, Loss> lost = new HashMap<>();
        RuntimeException timedOut = null;
        try {
            renewTogether(ttl, group, lost);
        }
        catch (QueryTimeoutException | PessimisticLockingFailureException ex) {
            if (group.size() == 1) {
                renewalFailed(ttl, group, ex, lost);
            }
            else {
                timedOut = ex;
            }
        }
        catch (RuntimeException ex) {
            renewalFailed(ttl, group, ex, lost);
        }
        finally {
            for (Entry entry : group) {
                if (lost.containsKey(entry) && entries.remove(entry.lease, entry)) {
                    updateReservation();
                }
                synchronized (entry) {
                    entry.inFlight = false;
                    entry.lease.unlockAfterRenewal();
                }
            }
        }
        // Told only after the round let go of its leases, so a listener may release or unwatch any lease.
        lost.forEach((entry, loss) -> {
            if (!entry.cancelled) {
                if (loss.gone()) {
                    entry.lease.gone(loss.reason());
                }
                else {
                    entry.lease.lost(loss.reason());
                }
            }
        });
        return timedOut;
    }

    private void renewTogether(Duration ttl, List<Entry> group, Map<Entry, Loss> lost) {
        if (batch == null) {
            for (Entry entry : group) {
                renewAlone(ttl, entry, lost);
            }
            return;
        }
        long sentAt = System.nanoTime();
        Map<LeaseKey, LockRecord> renewed = batch.renewAll(group.stream().map(e -> e.lease.key()).toList(), ttl);
        if (renewalFailures.failures() > 0) {
            renewalFailures.succeeded("Lease renewal");
        }
        List<Entry> missing = new ArrayList<>();
        for (Entry entry : group) {
            LockRecord record = renewed.get(entry.lease.key());
            if (record != null) {
                entry.nextRenewalNanos = sentAt + intervalNanos(ttl);
                entry.lastFailure = null;
                entry.lease.renewed(record, sentAt, ttl);
            }
            else {
                missing.add(entry);
            }
        }
        for (Entry entry : missing) {
            renewAlone(ttl, entry, lost);
        }
    }

    /**
     * Renews a lease the batch did not renew: it is gone, or its row was held by another session and the batch
     * skipped it. Only the answer of a statement of its own tells which.
     */
    private void renewAlone(Duration ttl, Entry entry, Map<Entry, Loss> lost) {
        long sentAt = System.nanoTime();
        RenewResult result;
        try {
            result = repository.renew(entry.lease.key().resource(), entry.lease.key().owner(), ttl);
        }
        catch (RuntimeException ex) {
            renewalFailed(ttl, List.of(entry), ex, lost);
            return;
        }
        LockRecord record = result.record();
        if (record != null) {
            if (renewalFailures.failures() > 0) {
                renewalFailures.succeeded("Lease renewal");
            }
            entry.nextRenewalNanos = sentAt + intervalNanos(ttl);
            entry.lastFailure = null;
            entry.lease.renewed(record, sentAt, ttl);
        }
        else {
            lost.put(entry, new Loss(result.status() == LockResult.FORBIDDEN
                    ? "renewal found it held by another owner" : "renewal found it expired", true));
        }
    }

    private void renewalFailed(Duration ttl, List<Entry> group, RuntimeException ex, Map<Entry, Loss> lost) {
        String cause = NestedExceptionUtils.getMostSpecificCause(ex).toString();
        renewalFailures.failed("Could not renew " + describe(group) + " with TTL " + ttl + "; retrying until "
                + (group.size() == 1 ? "it would have" : "they would have") + " run out", ex);
        long now = System.nanoTime();
        for (Entry entry : group) {
            entry.lastFailure = cause;
            entry.lease.renewalFailed(ex);
            if (now - entry.lease.localDeadlineNanos() >= 0) {
                lost.put(entry, new Loss("it ran out while renewal kept failing: " + cause, false));
            }
            else {
                entry.nextRenewalNanos = Math.min(now + retryNanos(ttl), entry.lease.localDeadlineNanos());
            }
        }
    }

    /** Names the resources of a group for a log line: all of a few, the first ones of many. */
    private static String describe(List<Entry> group) {
        int shown = Math.min(group.size(), 5);
        StringBuilder names = new StringBuilder(group.size() == 1 ? "the lease on " : group.size() + " leases (");
        for (int i = 0; i < shown; i++) {
            names.append(i == 0 ? "" : ", ").append('\'').append(group.get(i).lease.key().resource()).append('\'');
        }
        if (group.size() > shown) {
            names.append(", …");
        }
        return group.size() == 1 ? names.toString() : names.append(')').toString();
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

    /** How soon a lease whose renewal failed, or sat a round out, is tried again. */
    private long retryNanos(Duration ttl) {
        return Math.min(MAX_RETRY_NANOS, Math.max(MIN_RETRY_NANOS, intervalNanos(ttl) / 4));
    }

    private long intervalNanos(Renewable lease) {
        return intervalNanos(lease.ttl());
    }

    private long intervalNanos(Duration ttl) {
        return Math.max(1, (long) (ttl.toNanos() * settings.renewRatio()));
    }

    /**
     * Why a round found a lease lost.
     *
     * @param reason what the holder is told
     * @param gone whether a statement found it gone, rather than the lease running out unconfirmed
     */
    private record Loss(String reason, boolean gone) {
    }

    /** A watched lease and when it is renewed next. */
    private static final class Entry {

        final Renewable lease;

        final Duration maxHold;

        final long stopAtNanos;

        volatile long nextRenewalNanos;

        volatile boolean inFlight;

        volatile boolean cancelled;

        /** The cause of the last failed renewal, or {@code null} when the last one succeeded. */
        volatile @Nullable String lastFailure;

        Entry(Renewable lease, Duration maxHold, long stopAtNanos) {
            this.lease = lease;
            this.maxHold = maxHold;
            this.stopAtNanos = stopAtNanos;
        }
    }
}
