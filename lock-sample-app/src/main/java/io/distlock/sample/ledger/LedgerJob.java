package io.distlock.sample.ledger;

import java.time.Instant;

import io.distlock.core.Lease;
import io.distlock.core.SlotExecution;
import io.distlock.sample.DemoProperties;
import io.distlock.sample.JobConsole;
import io.distlock.spring.OncePerSlot;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Fires on every replica every five seconds of its scheduler's clock and appends the slot's ledger entry, once per
 * slot across the replicas. The short TTL lets another replica take over within three seconds of a crash; the
 * watchdog renews the lease while the work runs. The entry carries the lease's fencing token, so a replica that
 * paused past its lease cannot land a late write.
 */
@Component
public class LedgerJob {

    private final LedgerRepository ledger;

    private final JobConsole console;

    private final DemoProperties properties;

    public LedgerJob(LedgerRepository ledger, JobConsole console, DemoProperties properties) {
        this.ledger = ledger;
        this.console = console;
        this.properties = properties;
    }

    @Scheduled(cron = "*/5 * * * * *", zone = "UTC")
    @OncePerSlot(job = "ledger", ttl = "PT3S")
    public void run() throws InterruptedException {
        SlotExecution execution = SlotExecution.current().orElseThrow();
        Instant slot = execution.slot();
        Lease lease = execution.lease();
        console.executed("ledger", slot, lease.token());
        Thread.sleep(properties.ledgerWork().toMillis());
        if (!ledger.append(slot, properties.replica(), lease.token())) {
            console.fenced("ledger", lease.token(), ledger.newestToken());
        }
    }
}
