package io.distlock.core;

import java.util.Collection;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * While a watchdog round runs, tells a lease lost once its TTL ran out on this machine's clock: a round held up by a
 * statement that waits (for a connection, for a row lock) must not hold back the news that the holder can no longer
 * trust its lease. Runs on a thread of its own, which the rounds never block.
 */
final class HeldUpRoundWatch implements AutoCloseable {

    /** How often, while a round runs, leases whose TTL ran out meanwhile are looked for. */
    private static final long CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final ScheduledThreadPoolExecutor deadlines;

    private final Collection<WatchedLease> watched;

    private final WatchdogSettings settings;

    private final Consumer<WatchedLease> forget;

    /**
     * @param watched the leases being kept alive, a live view
     * @param settings how leases are renewed
     * @param forget stops watching a lease told lost
     */
    HeldUpRoundWatch(Collection<WatchedLease> watched, WatchdogSettings settings, Consumer<WatchedLease> forget) {
        this.watched = watched;
        this.settings = settings;
        this.forget = forget;
        this.deadlines = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "distlock-watchdog-deadlines");
            thread.setDaemon(true);
            return thread;
        });
        this.deadlines.setRemoveOnCancelPolicy(true);
    }

    /**
     * Starts watching, for the round about to run.
     *
     * @return the check, to cancel when the round ends; {@code null} when no lease is watched
     */
    @Nullable ScheduledFuture<?> duringRound() {
        long earliest = 0;
        boolean any = false;
        for (WatchedLease entry : watched) {
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
            return deadlines.scheduleWithFixedDelay(this::tellRunOutLeases,
                    Math.max(CHECK_NANOS, earliest - System.nanoTime()), CHECK_NANOS, TimeUnit.NANOSECONDS);
        }
        catch (RejectedExecutionException ex) {
            return null; // closed
        }
    }

    /**
     * When a lease whose renewal is held up is told lost: half a renewal interval after it ran out on this machine's
     * clock, so that a renewal that is merely late (a busy machine) still counts, and well within one interval.
     */
    private long toldLostAt(WatchedLease entry) {
        return entry.lease.localDeadlineNanos() + settings.intervalNanos(entry.lease.ttl()) / 2;
    }

    private void tellRunOutLeases() {
        long now = System.nanoTime();
        for (WatchedLease entry : watched) {
            if (now - toldLostAt(entry) < 0 || entry.lease.isReleased()) {
                continue;
            }
            synchronized (entry) {
                if (entry.cancelled) {
                    continue;
                }
                entry.cancelled = true;
            }
            forget.accept(entry);
            String failure = entry.lastFailure;
            entry.lease.lost(failure != null ? "it ran out while renewal kept failing: " + failure
                    : "its TTL of " + entry.lease.ttl() + " ran out while its renewal was held up");
        }
    }

    @Override
    public void close() {
        deadlines.shutdownNow();
    }
}
