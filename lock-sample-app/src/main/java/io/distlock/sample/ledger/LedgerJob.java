package io.distlock.sample.ledger;

import java.time.Instant;

import io.distlock.sample.JobConsole;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Fires on every replica every five seconds, at the same wall-clock instants; the ledger lock lets one run.
 */
@Component
public class LedgerJob {

    private final LedgerService ledger;

    private final JobConsole console;

    public LedgerJob(LedgerService ledger, JobConsole console) {
        this.ledger = ledger;
        this.console = console;
    }

    @Scheduled(cron = "*/5 * * * * *", zone = "UTC")
    public void run() throws InterruptedException {
        Instant slot = JobConsole.slot(5);
        if (ledger.appendEntry(slot).isEmpty()) {
            console.skipped("ledger", slot);
        }
    }
}
