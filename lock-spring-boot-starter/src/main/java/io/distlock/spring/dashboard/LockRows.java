package io.distlock.spring.dashboard;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.distlock.core.LeaseKey;
import io.distlock.core.LockRecord;
import org.jspecify.annotations.Nullable;

/**
 * The locks table of a page: the locks a query matches, ordered, one page of them, each with what stands out (about
 * to expire, held long) and, for this instance's own leases, how often it renewed them.
 */
final class LockRows {

    private final Duration expiringWithin;

    private final Duration longHeldAfter;

    LockRows(Duration expiringWithin, Duration longHeldAfter) {
        this.expiringWithin = expiringWithin;
        this.longHeldAfter = longHeldAfter;
    }

    /**
     * A page of locks.
     *
     * @param locks every live lock
     * @param query the filter, order and page
     * @param now this application's clock, which times are counted from
     * @param renewals this instance's leases and how often it renewed each
     * @param fullOwners whether owners are shown in full
     * @return the page
     */
    Page page(List<LockRecord> locks, LockQuery query, Instant now, Map<LeaseKey, Long> renewals,
            boolean fullOwners) {
        List<LockRecord> matched = locks.stream().filter(r -> query.matches(r, Owners.instance(r.owner())))
                .sorted(query.order()).toList();
        List<Row> rows = matched.stream().skip(query.offset()).limit(query.limit())
                .map(record -> row(record, now, renewals.get(record.key()), fullOwners)).toList();
        return new Page(locks.size(), matched.size(), query.offset(), query.limit(),
                query.sort().name().toLowerCase(java.util.Locale.ROOT), query.descending() ? "desc" : "asc",
                count(locks.stream(), now, true), count(locks.stream(), now, false), rows);
    }

    private Row row(LockRecord record, Instant now, @Nullable Long renewals, boolean fullOwners) {
        long held = Duration.between(record.acquiredAt(), now).toMillis();
        long left = Duration.between(now, record.expiresAt()).toMillis();
        return new Row(record.resource(), Owners.shown(record.owner(), fullOwners), Owners.instance(record.owner()),
                record.token(), record.acquiredAt().toString(), record.expiresAt().toString(), Math.max(held, 0),
                left, renewals, renewals != null, expiring(left), longHeld(held));
    }

    private long count(Stream<LockRecord> locks, Instant now, boolean expiring) {
        return locks.filter(r -> expiring ? expiring(Duration.between(now, r.expiresAt()).toMillis())
                : longHeld(Duration.between(r.acquiredAt(), now).toMillis())).count();
    }

    private boolean expiring(long leftMillis) {
        return leftMillis < expiringWithin.toMillis();
    }

    private boolean longHeld(long heldMillis) {
        return heldMillis > longHeldAfter.toMillis();
    }

    /**
     * A page of locks.
     *
     * @param total every live lock
     * @param matched the locks the filter matched
     * @param offset matching locks before the page
     * @param limit the page's size
     * @param sort the order's key
     * @param order {@code asc} or {@code desc}
     * @param expiring live locks about to expire, of all
     * @param longHeld live locks held long, of all
     * @param rows the page's locks
     */
    record Page(int total, int matched, int offset, int limit, String sort, String order, long expiring,
            long longHeld, List<Row> rows) {
    }

    /**
     * One lock.
     *
     * @param resource the resource
     * @param owner the owner, in full or its fingerprint
     * @param instance the holding instance, or empty when the owner names none
     * @param token the fencing token
     * @param acquiredAt when it was taken (the store's time)
     * @param expiresAt when it runs out unless renewed (the store's time)
     * @param heldMillis how long it has been held, by this application's clock
     * @param expiresInMillis time left on the lease, by this application's clock
     * @param renewals how often this instance renewed it; {@code null} when another instance holds it
     * @param mine whether this instance holds it
     * @param expiring whether it is about to expire
     * @param longHeld whether it has been held long
     */
    record Row(String resource, String owner, String instance, long token, String acquiredAt, String expiresAt,
            long heldMillis, long expiresInMillis, @Nullable Long renewals, boolean mine, boolean expiring,
            boolean longHeld) {
    }
}
