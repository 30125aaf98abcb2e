package io.distlock.shedlock;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.LockResult;
import io.distlock.core.RenewResult;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * One acquisition through {@link DistlockLockProvider}: unlocking releases it honouring {@code lockAtLeastFor},
 * extending renews it and hands out its successor; each works once, as ShedLock requires.
 */
final class DistlockSimpleLock implements SimpleLock {

    private final LockRepository repository;

    private final LockRecord record;

    /** How long after the acquisition the lock stays held at least, in the store's time. */
    private final Duration minHold;

    private final AtomicBoolean usable = new AtomicBoolean(true);

    DistlockSimpleLock(LockRepository repository, LockRecord record, Duration minHold) {
        this.repository = repository;
        this.record = record;
        this.minHold = minHold;
    }

    @Override
    public void unlock() {
        endUse("unlock");
        repository.release(record.resource(), record.owner(), minHold);
    }

    /**
     * Renews the lock for {@code lockAtMostFor} from now and keeps it held until {@code lockAtLeastFor} from now at
     * least; answers empty, leaving this lock usable, when the lock was lost meanwhile.
     */
    @Override
    public Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
        if (!usable.get()) {
            throw used("extend");
        }
        RenewResult renewed = repository.renew(record.resource(), record.owner(), lockAtMostFor);
        if (renewed.status() != LockResult.APPLIED || renewed.record() == null) {
            return Optional.empty();
        }
        endUse("extend");
        LockRecord next = renewed.record();
        // The store's time of the renewal is its new expiry less the TTL; keep the lock until lockAtLeastFor after it,
        // in the whole milliseconds the stores count, rounded up.
        Duration sinceAcquisition = Duration.between(next.acquiredAt(), next.expiresAt().minus(lockAtMostFor));
        Duration minHold = sinceAcquisition.plus(lockAtLeastFor);
        Duration wholeMillis = Duration.ofMillis(minHold.toMillis());
        return Optional.of(new DistlockSimpleLock(repository, next,
                wholeMillis.equals(minHold) ? minHold : wholeMillis.plusMillis(1)));
    }

    private void endUse(String call) {
        if (!usable.compareAndSet(true, false)) {
            throw used(call);
        }
    }

    private IllegalStateException used(String call) {
        return new IllegalStateException("SimpleLock." + call + "() on '" + record.resource() + "': this lock was "
                + "already unlocked or extended (use the lock extend() returned)");
    }

    @Override
    public String toString() {
        return "DistlockSimpleLock[" + record.resource() + ", token " + record.token() + "]";
    }
}
