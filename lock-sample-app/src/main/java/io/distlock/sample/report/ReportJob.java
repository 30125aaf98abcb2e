package io.distlock.sample.report;

import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;

import io.distlock.core.SlotExecution;
import io.distlock.sample.JobConsole;
import io.distlock.spring.OncePerSlot;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Fires on every replica every 15 seconds of its scheduler's clock; one replica builds the month's report per slot.
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
    @OncePerSlot(job = "report", ttl = "PT5S")
    public void run() throws InterruptedException {
        SlotExecution execution = SlotExecution.current().orElseThrow();
        Instant slot = execution.slot();
        console.executed("report", slot, execution.lease().token());
        reports.generate(YearMonth.from(slot.atZone(ZoneOffset.UTC)), execution.lease().token());
    }
}
