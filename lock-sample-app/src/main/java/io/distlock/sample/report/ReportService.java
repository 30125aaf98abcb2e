package io.distlock.sample.report;

import java.time.YearMonth;

import io.distlock.sample.DemoProperties;

import org.springframework.stereotype.Service;

/**
 * Builds the report of a month.
 */
@Service
public class ReportService {

    private final DemoProperties properties;

    public ReportService(DemoProperties properties) {
        this.properties = properties;
    }

    /**
     * Generates the report.
     *
     * @param month the month to report on
     * @param token the fencing token of the lease it is built under, stamped on the report
     * @return the report's title
     */
    public String generate(YearMonth month, long token) throws InterruptedException {
        Thread.sleep(properties.reportWork().toMillis());
        return "Report " + month + " (token " + token + ")";
    }
}
