package io.distlock.sample.report;

import java.time.Instant;
import java.time.YearMonth;
import java.util.Optional;

import io.distlock.core.Lease;
import io.distlock.sample.DemoProperties;
import io.distlock.sample.JobConsole;
import io.distlock.core.CurrentLease;
import io.distlock.spring.DistributedLock;

import org.springframework.stereotype.Service;

/**
 * Builds the report of a month. The lock is per month ({@code report:2026-11}); {@code minHold} keeps it taken for
 * most of the period, so a replica whose tick fires a little late does not build the same report again.
 */
@Service
public class ReportService {

    private final JobConsole console;

    private final DemoProperties properties;

    public ReportService(JobConsole console, DemoProperties properties) {
        this.console = console;
        this.properties = properties;
    }

    /**
     * Generates the report unless another replica is generating it.
     *
     * @param month the month to report on
     * @param slot the scheduled fire time of this run
     * @return the report's title, or empty when another replica holds the month's lock
     */
    @DistributedLock(resource = "report:#{#month}", ttl = "PT30S", minHold = "PT10S")
    public Optional<String> generate(YearMonth month, Instant slot) throws InterruptedException {
        Lease lease = CurrentLease.require();
        console.executed("report", slot, lease.token());
        Thread.sleep(properties.reportWork().toMillis());
        return Optional.of("Report " + month + " (token " + lease.token() + ")");
    }
}
