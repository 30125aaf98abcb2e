package io.distlock.spring.aop;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.distlock.core.BatchRenewal;
import io.distlock.core.LeaseKey;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.LockResult;
import io.distlock.core.RenewResult;

/**
 * A lock table in a map, for measuring what the aspect itself costs without a database in the way.
 */
final class InMemoryLockRepository implements LockRepository, BatchRenewal {

    private final Map<String, LockRecord> rows = new ConcurrentHashMap<>();

    private final AtomicLong tokens = new AtomicLong();

    private final Clock clock = Clock.systemUTC();

    @Override
    public Optional<LockRecord> acquire(String resource, String owner, Duration ttl) {
        Instant now = clock.instant();
        LockRecord row = rows.compute(resource, (key, current) -> {
            if (current != null && current.expiresAt().isAfter(now) && !current.owner().equals(owner)) {
                return current;
            }
            boolean same = current != null && current.owner().equals(owner);
            return new LockRecord(resource, owner, same ? current.token() : tokens.incrementAndGet(),
                    same ? current.acquiredAt() : now, now.plus(ttl));
        });
        return row.owner().equals(owner) ? Optional.of(row) : Optional.empty();
    }

    @Override
    public RenewResult renew(String resource, String owner, Duration ttl) {
        Instant now = clock.instant();
        LockRecord row = rows.computeIfPresent(resource, (key, current) -> live(current, owner, now)
                ? new LockRecord(resource, owner, current.token(), current.acquiredAt(), now.plus(ttl)) : current);
        return row != null && row.owner().equals(owner) && row.expiresAt().isAfter(now) ? RenewResult.renewed(row)
                : RenewResult.refused(LockResult.NOT_FOUND);
    }

    @Override
    public Map<LeaseKey, LockRecord> renewAll(Collection<LeaseKey> leases, Duration ttl) {
        Map<LeaseKey, LockRecord> renewed = new LinkedHashMap<>();
        for (LeaseKey lease : leases) {
            renew(lease.resource(), lease.owner(), ttl).renewedRecord().ifPresent(row -> renewed.put(lease, row));
        }
        return renewed;
    }

    @Override
    public LockResult release(String resource, String owner, Duration minHold) {
        Instant now = clock.instant();
        boolean[] released = new boolean[1];
        rows.computeIfPresent(resource, (key, current) -> {
            if (!live(current, owner, now)) {
                return current;
            }
            released[0] = true;
            Instant end = current.acquiredAt().plus(minHold);
            return new LockRecord(resource, owner, current.token(), current.acquiredAt(), end.isAfter(now) ? end : now);
        });
        return released[0] ? LockResult.APPLIED : LockResult.NOT_FOUND;
    }

    @Override
    public Optional<LockRecord> find(String resource) {
        LockRecord row = rows.get(resource);
        return row != null && row.expiresAt().isAfter(clock.instant()) ? Optional.of(row) : Optional.empty();
    }

    @Override
    public List<LockRecord> findAll() {
        return rows.values().stream().filter(row -> row.expiresAt().isAfter(clock.instant())).toList();
    }

    @Override
    public int deleteExpired(Duration retention) {
        return 0;
    }

    private static boolean live(LockRecord row, String owner, Instant now) {
        return row.owner().equals(owner) && row.expiresAt().isAfter(now);
    }
}
