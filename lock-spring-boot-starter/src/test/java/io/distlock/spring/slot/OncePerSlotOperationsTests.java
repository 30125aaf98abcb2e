package io.distlock.spring.slot;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.distlock.core.SlotExecution;
import io.distlock.core.SlotRun;
import io.distlock.core.SlotRunOutcome;
import io.distlock.jdbc.LockTableName;
import io.distlock.spring.OncePerSlot;
import io.distlock.spring.actuate.LocksEndpoint;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.spring.metrics.DistributedLockMetricsAutoConfiguration;
import io.distlock.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Missed slots when every replica was down, on every database: the first slot after the outage names them at WARN,
 * counts them, and the catch-up policy runs the job once for them; the Actuator endpoint and the meters show the
 * slots.
 */
@ExtendWith(OutputCaptureExtension.class)
class OncePerSlotOperationsTests {

    static final List<String> runs = new CopyOnWriteArrayList<>();

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void slotsMissedWhileAllReplicasWereDownAreToldCountedAndCaughtUpOnce(TestDatabase database,
            CapturedOutput output) {
        database.assumeAvailable();
        String table = "dl_missed_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        Store store = new Store(database, table);
        runs.clear();
        try {
            caughtUpOnceAfterAnOutage(store, output);
        }
        finally {
            if (database != TestDatabase.H2) {
                database.dropLockTable(new LockTableName(table));
            }
        }
    }

    private static void caughtUpOnceAfterAnOutage(Store store, CapturedOutput output) {
        Instant lastBeforeOutage;
        try (ConfigurableApplicationContext first = replica(store)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> runs.size() >= 1);
            first.close();
            lastBeforeOutage = slotRuns(store).get(0).slot();
        }
        runs.clear();
        // Every replica stays down for three periods and more: the outage is the fault under test, not a wait.
        await().pollDelay(Duration.ofMillis(3600)).atMost(Duration.ofSeconds(5)).until(() -> true);
        try (ConfigurableApplicationContext second = replica(store)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> runs.stream().anyMatch(run -> !run.startsWith("catch-up")));
            SlotRun resumed = endpoint(second).locks().slots().get(0);
            long missed = Duration.between(lastBeforeOutage, resumed.slot()).toSeconds() - 1;
            assertThat(missed).isGreaterThanOrEqualTo(3);
            assertThat(runs.get(0)).as("one catch-up run, for the latest missed slot")
                    .isEqualTo("catch-up " + resumed.slot().minusSeconds(1));
            assertThat(runs.stream().filter(run -> run.startsWith("catch-up"))).hasSize(1);
            assertThat(output.getOut()).containsOnlyOnce("missed " + missed + " slots from "
                    + lastBeforeOutage.plusSeconds(1) + " to " + resumed.slot().minusSeconds(1) + " before slot "
                    + resumed.slot());
            MeterRegistry registry = second.getBean(MeterRegistry.class);
            assertThat(registry.get("distributed.lock.slots").tag("lock", "heartbeat").tag("outcome", "missed")
                    .counter().count()).isEqualTo(missed);
            // The run is counted once it ended and its end was recorded, just after its work recorded itself.
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(registry.get(
                    "distributed.lock.slots").tag("outcome", "executed").counter().count()).isGreaterThanOrEqualTo(1));
            assertThat(resumed.outcome()).isIn(SlotRunOutcome.RUNNING, SlotRunOutcome.SUCCEEDED);
        }
    }

    private static List<SlotRun> slotRuns(Store store) {
        try (ConfigurableApplicationContext reader = new SpringApplicationBuilder(ReaderApplication.class)
                .web(WebApplicationType.NONE).bannerMode(Banner.Mode.OFF).logStartupInfo(false)
                .properties(store.properties("never"))
                .run()) {
            return endpoint(reader).locks().slots();
        }
    }

    private static LocksEndpoint endpoint(ConfigurableApplicationContext context) {
        return new LocksEndpoint(context.getBean(io.distlock.core.LockRepository.class),
                context.getBean(io.distlock.core.LockManager.class));
    }

    private static ConfigurableApplicationContext replica(Store store) {
        return new SpringApplicationBuilder(ReplicaApplication.class)
            .web(WebApplicationType.NONE)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .properties(store.properties("always"))
            .run();
    }

    /** The database and a lock table of this test's own, so that a shared server holds no earlier slot. */
    record Store(TestDatabase database, String table) {

        String[] properties(String initializeSchema) {
            String url = database == TestDatabase.H2 ? "jdbc:h2:mem:" + table + ";DB_CLOSE_DELAY=-1" : database.url();
            return new String[] { "spring.datasource.url=" + url, "spring.datasource.username=" + database.user(),
                    "spring.datasource.password=" + database.password(), "distributed-lock.table-name=" + table,
                    "distributed-lock.jdbc.initialize-schema=" + initializeSchema };
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ DataSourceAutoConfiguration.class, DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class })
    static class ReaderApplication {
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    @ImportAutoConfiguration({ DataSourceAutoConfiguration.class, AopAutoConfiguration.class,
            DistributedLockMetricsAutoConfiguration.class, DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class,
            DistributedLockSlotAutoConfiguration.class })
    static class ReplicaApplication {

        @Bean
        SimpleMeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        Heartbeat heartbeat() {
            return new Heartbeat();
        }
    }

    /** A job every second that catches up once after missed slots. */
    public static class Heartbeat {

        @Scheduled(cron = "* * * * * *")
        @OncePerSlot(job = "heartbeat", ttl = "PT10S", onMissed = io.distlock.core.MissedSlotPolicy.CATCH_UP)
        public void beat() {
            SlotExecution execution = SlotExecution.current().orElseThrow();
            runs.add((execution.catchUp() ? "catch-up " : "") + execution.slot());
        }
    }
}
