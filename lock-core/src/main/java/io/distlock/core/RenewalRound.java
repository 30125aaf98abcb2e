package io.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.dao.QueryTimeoutException;

/**
 * One renewal of a group of due leases that share a TTL, for the {@link LeaseWatchdog}: the store's batch renewal
 * (or a renewal per lease where the store has none), a lease missing from the batch's answer renewed alone before it
 * counts as lost, a batch that timed out together renewed lease by lease, and what each lease is told. Logs under the
 * watchdog's name, where operators look for it.
 */
final class RenewalRound {

    private static final Logger logger = LoggerFactory.getLogger(LeaseWatchdog.class);

    private final LockRepository repository;

    /** The store's batch renewal, or {@code null} when each lease is renewed on its own. */
    private final @Nullable BatchRenewal batch;

    private final WatchdogSettings settings;

    private final Watched watched;

    /** Renewals that fail, told once and then summarised while an outage lasts. */
    private final FailureLog renewalFailures = new FailureLog(logger);

    RenewalRound(LockRepository repository, WatchdogSettings settings, Watched watched) {
        this.repository = repository;
        this.batch = repository.capability(BatchRenewal.class).orElse(null);
        this.settings = settings;
        this.watched = watched;
    }

    /**
     * Renews a group of claimed leases.
     *
     * @param ttl their TTL
     * @param group the leases, claimed for this round
     */
    void renew(Duration ttl, List<WatchedLease> group) {
        RuntimeException timedOut = renewClaimed(ttl, group);
        if (timedOut == null) {
            return;
        }
        // One stuck row must not cost the others their leases, nor their releases a wait for the stuck one: each is
        // claimed again and renewed on its own this round, and a lease released meanwhile sits it out.
        logger.warn("Renewing {} with TTL {} together timed out ({}); renewing each on its own", describe(group), ttl,
                NestedExceptionUtils.getMostSpecificCause(timedOut).toString());
        for (WatchedLease entry : group) {
            renewClaimed(ttl, watched.claim(List.of(entry)));
        }
    }

    /**
     * Renews claimed leases together and lets go of them.
     *
     * @return the failure when several leases timed out together (none of them renewed, none marked), else null
     */
    private @Nullable RuntimeException renewClaimed(Duration ttl, List<WatchedLease> group) {
        if (group.isEmpty()) {
            return null;
        }
        Map<WatchedLease, Loss> lost = new HashMap<>();
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
            for (WatchedLease entry : group) {
                if (lost.containsKey(entry)) {
                    watched.forget(entry);
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

    private void renewTogether(Duration ttl, List<WatchedLease> group, Map<WatchedLease, Loss> lost) {
        if (batch == null) {
            for (WatchedLease entry : group) {
                renewAlone(ttl, entry, lost);
            }
            return;
        }
        long sentAt = System.nanoTime();
        Map<LeaseKey, LockRecord> renewed = batch.renewAll(group.stream().map(e -> e.lease.key()).toList(), ttl);
        succeeded();
        List<WatchedLease> missing = new ArrayList<>();
        for (WatchedLease entry : group) {
            LockRecord record = renewed.get(entry.lease.key());
            if (record != null) {
                renewed(entry, record, sentAt, ttl);
            }
            else {
                missing.add(entry);
            }
        }
        for (WatchedLease entry : missing) {
            renewAlone(ttl, entry, lost);
        }
    }

    /**
     * Renews a lease the batch did not renew: it is gone, or its row was held by another session and the batch
     * skipped it. Only the answer of a statement of its own tells which.
     */
    private void renewAlone(Duration ttl, WatchedLease entry, Map<WatchedLease, Loss> lost) {
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
            succeeded();
            renewed(entry, record, sentAt, ttl);
        }
        else {
            lost.put(entry, new Loss(result.status() == LockResult.FORBIDDEN
                    ? "renewal found it held by another owner" : "renewal found it expired", true));
        }
    }

    private void renewed(WatchedLease entry, LockRecord record, long sentAt, Duration ttl) {
        entry.nextRenewalNanos = sentAt + settings.intervalNanos(ttl);
        entry.lastFailure = null;
        entry.lease.renewed(record, sentAt, ttl);
    }

    private void succeeded() {
        if (renewalFailures.failures() > 0) {
            renewalFailures.succeeded("Lease renewal");
        }
    }

    private void renewalFailed(Duration ttl, List<WatchedLease> group, RuntimeException ex,
            Map<WatchedLease, Loss> lost) {
        String cause = NestedExceptionUtils.getMostSpecificCause(ex).toString();
        renewalFailures.failed("Could not renew " + describe(group) + " with TTL " + ttl + "; retrying until "
                + (group.size() == 1 ? "it would have" : "they would have") + " run out", ex);
        long now = System.nanoTime();
        for (WatchedLease entry : group) {
            entry.lastFailure = cause;
            entry.lease.renewalFailed(ex);
            if (now - entry.lease.localDeadlineNanos() >= 0) {
                lost.put(entry, new Loss("it ran out while renewal kept failing: " + cause, false));
            }
            else {
                entry.nextRenewalNanos = Math.min(now + settings.retryNanos(ttl), entry.lease.localDeadlineNanos());
            }
        }
    }

    /** Names the resources of a group for a log line: all of a few, the first ones of many. */
    private static String describe(List<WatchedLease> group) {
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

    /** What the watchdog does for a round. */
    interface Watched {

        /**
         * Claims leases for a renewal, passing over those released, cancelled or busy.
         *
         * @param group the leases
         * @return those claimed
         */
        List<WatchedLease> claim(List<WatchedLease> group);

        /**
         * Stops watching a lease the round found lost.
         *
         * @param entry the lease
         */
        void forget(WatchedLease entry);
    }

    /**
     * Why a round found a lease lost.
     *
     * @param reason what the holder is told
     * @param gone whether a statement found it gone, rather than the lease running out unconfirmed
     */
    private record Loss(String reason, boolean gone) {
    }
}
