package io.distlock.sample.report;

import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.Instant;

import io.distlock.sample.JobConsole;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Fires on every replica every 15 seconds, at the same wall-clock instants; the month's lock lets one run.
 */
@Component
public class ReportJob {

    private final ReportService reports;

    private final JobConsole console;

    public ReportJob(ReportService reports, JobConsole console) {
        this.reports = reports;
        this.console = console;
    }

    @Scheduled(cron = "*/15 * * * * *", zone = "UTC")
    public void run() throws InterruptedException {
        Instant slot = JobConsole.slot(15);
        if (reports.generate(YearMonth.now(ZoneOffset.UTC), slot).isEmpty()) {
            console.skipped("report", slot);
        }
    }
}
