package io.distlock.sample.ledger;

import java.time.Instant;
import java.util.Optional;

import io.distlock.core.Lease;
import io.distlock.sample.DemoProperties;
import io.distlock.sample.JobConsole;
import io.distlock.core.CurrentLease;
import io.distlock.spring.DistributedLock;

import org.springframework.stereotype.Service;

/**
 * Appends the ledger entry of one tick. The short TTL lets another replica take over within three seconds of a
 * crash; {@code minHold} keeps the lock taken for most of the five-second period so a late tick elsewhere finds it
 * held. The watchdog renews the lease while the work runs.
 */
@Service
public class LedgerService {

    private final LedgerRepository ledger;

    private final JobConsole console;

    private final DemoProperties properties;

    public LedgerService(LedgerRepository ledger, JobConsole console, DemoProperties properties) {
        this.ledger = ledger;
        this.console = console;
        this.properties = properties;
    }

    /**
     * Does the tick's work and appends its entry, unless another replica holds the ledger lock.
     *
     * @param slot the scheduled fire time
     * @return the fencing token the tick ran under, or empty when another replica holds the lock
     */
    @DistributedLock(resource = "ledger", ttl = "PT3S", minHold = "PT4S")
    public Optional<Long> appendEntry(Instant slot) throws InterruptedException {
        Lease lease = CurrentLease.require();
        console.executed("ledger", slot, lease.token());
        Thread.sleep(properties.ledgerWork().toMillis());
        if (!ledger.append(slot, properties.replica(), lease.token())) {
            console.fenced("ledger", lease.token(), ledger.newestToken());
        }
        return Optional.of(lease.token());
    }
}
