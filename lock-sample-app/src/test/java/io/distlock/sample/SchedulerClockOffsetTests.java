package io.distlock.sample;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code sample.scheduler-clock-offset} skews the scheduler's clock: a replica an hour ahead labels its slots an hour
 * ahead, for the per-slot job and the lock-only job alike, while its scheduler keeps the pool size Spring Boot's
 * properties give it. The lock-only job runs them; the per-slot job's claims are refused, since their time has not
 * come by the database's clock.
 */
@SpringBootTest(properties = { "spring.datasource.url=jdbc:h2:mem:offset-tests;DB_CLOSE_DELAY=-1",
        "demo.replica=ahead-replica", "sample.scheduler-clock-offset=PT1H", "spring.task.scheduling.pool.size=5" })
@ExtendWith(OutputCaptureExtension.class)
class SchedulerClockOffsetTests {

    private static final Pattern EXECUTED = Pattern.compile("(?:EXECUTED job=(lock-only) slot=(\\S+) "
            + "replica=ahead-replica token=\\d+|SKIPPED job=(per-slot) slot=(\\S+) replica=ahead-replica reason=too-early)");

    @Autowired
    private ThreadPoolTaskScheduler scheduler;

    @Test
    void theSchedulerFiresByTheOffsetClockAndSlotsAreLabelledOnIt(CapturedOutput output) {
        assertThat(Duration.between(Instant.now(), scheduler.getClock().instant()))
                .isBetween(Duration.ofMinutes(59), Duration.ofMinutes(61));
        assertThat(scheduler.getScheduledThreadPoolExecutor().getCorePoolSize()).isEqualTo(5);
        // Other test contexts of this JVM may print too: only this replica's lines count.
        await().atMost(Duration.ofSeconds(20)).until(() -> jobsExecuted(output.getOut()).size() == 2);
        Matcher executed = EXECUTED.matcher(output.getOut());
        while (executed.find()) {
            String slot = executed.group(2) != null ? executed.group(2) : executed.group(4);
            assertThat(Instant.parse(slot)).as(executed.group())
                    .isAfter(Instant.now().plus(Duration.ofMinutes(59)))
                    .isBefore(Instant.now().plus(Duration.ofMinutes(61)));
        }
        assertThat(output.getOut()).doesNotContain("EXECUTED job=per-slot slot=" + Instant.now().plus(Duration.ofHours(1))
                .toString().substring(0, 13));
    }

    private static Set<String> jobsExecuted(String output) {
        Set<String> jobs = new HashSet<>();
        Matcher executed = EXECUTED.matcher(output);
        while (executed.find()) {
            jobs.add(executed.group(1) != null ? executed.group(1) : executed.group(3));
        }
        return jobs;
    }
}
