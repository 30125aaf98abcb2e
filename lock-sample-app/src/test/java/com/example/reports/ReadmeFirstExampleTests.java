package com.example.reports;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.distlock.core.LockManager;
import io.distlock.core.LockRepository;
import io.distlock.core.SlotRunOutcome;
import io.distlock.core.SlotStore;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.scheduling.support.ScheduledMethodRunnable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's first example is this package's {@code ReportsApplication.java}, character for character, and it
 * works: the application starts on embedded H2 with nothing but the starter configured, the hourly report runs once
 * per slot however often it is called, and an export of a customer whose lock another replica holds is skipped.
 */
@SpringBootTest(classes = ReportsApplication.class, properties = {
        "spring.datasource.url=jdbc:h2:mem:readme-example;DB_CLOSE_DELAY=-1", "spring.sql.init.mode=never",
        "distributed-lock.table-name=distributed_locks", "distributed-lock.http.enabled=false" })
class ReadmeFirstExampleTests {

    private static final Pattern FIRST_EXAMPLE = Pattern.compile(
            "## Use it in a Spring Boot application\\n.*?```java\\n(.*?)```", Pattern.DOTALL);

    @Autowired
    private HourlyReport report;

    @Autowired
    private Exports exports;

    @Autowired
    private LockManager locks;

    @Autowired
    private LockRepository repository;

    @Autowired
    private MeterRegistry meters;

    @Test
    void theReadmesFirstExampleIsThisFile() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        Matcher example = FIRST_EXAMPLE.matcher(readme);
        assertThat(example.find()).as("README has a java block under 'Use it in a Spring Boot application'").isTrue();
        String source = Files.readString(Path.of("src", "test", "java", "com", "example", "reports",
                "ReportsApplication.java"));
        assertThat(example.group(1)).isEqualTo(source);
    }

    @Test
    void theHourlyReportRunsOncePerSlotHoweverOftenTheSchedulerRunsIt() throws NoSuchMethodException {
        // As Spring's scheduler calls it: a direct call of an @OncePerSlot method claims no slot.
        Runnable scheduled = new ScheduledMethodRunnable(report, report.getClass().getMethod("run"));
        scheduled.run();
        scheduled.run();
        assertThat(SlotStore.of(repository).recentSlotRuns("hourly-report", 10)).singleElement()
                .satisfies(run -> assertThat(run.outcome()).isEqualTo(SlotRunOutcome.SUCCEEDED));
    }

    @Test
    void anExportOfACustomerWhoseLockIsHeldElsewhereIsSkipped() {
        try (var elsewhere = locks.tryAcquire("export:acme", Duration.ofMinutes(1)).orElseThrow()) {
            exports.export("acme");
            assertThat(meters.get("distributed.lock.acquire").tag("lock", "export:#{#customer}").tag("outcome",
                    "held").timer().count()).isEqualTo(1);
        }
        exports.export("acme");
        assertThat(meters.get("distributed.lock.acquire").tag("lock", "export:#{#customer}").tag("outcome",
                "acquired").timer().count()).isEqualTo(1);
    }
}
