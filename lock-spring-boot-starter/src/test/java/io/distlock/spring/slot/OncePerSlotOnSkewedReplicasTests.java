package io.distlock.spring.slot;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.distlock.core.SlotExecution;
import io.distlock.jdbc.LockTableName;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.OncePerSlot;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three replicas share one database, each with its scheduler's clock offset (-5 s, 0, +3 s) against a 2-second
 * cron, running a job shorter than the skew, with no minimum hold: the {@code @OncePerSlot} job runs every slot
 * exactly once — none twice, even on the replica late by more than the period, none claimed ahead of its time by the
 * replica 3 s ahead (more than the early tolerance, so the database refuses its claims), and none missed — while the
 * same job guarded by the lock alone runs slots twice.
 */
class OncePerSlotOnSkewedReplicasTests {

    private static final int PERIOD_SECONDS = 2;

    static final List<Run> runs = new CopyOnWriteArrayList<>();

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void everySlotRunsExactlyOnceWhileTheLockAloneRunsSlotsTwice(TestDatabase database) {
        database.assumeAvailable();
        String table = "dl_slots_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String url = database == TestDatabase.H2 ? "jdbc:h2:mem:" + table + ";DB_CLOSE_DELAY=-1" : database.url();
        String perSlot = "per-slot-" + table;
        String lockOnly = "lock-only-" + table;
        Instant start = Instant.now();
        List<ConfigurableApplicationContext> replicas = new ArrayList<>();
        try {
            for (String offset : List.of("-PT5S", "PT0S", "PT3S")) {
                replicas.add(replica(database, url, table, offset, perSlot, lockOnly));
            }
            await().atMost(Duration.ofSeconds(40)).until(() -> slotsOf(perSlot).keySet().stream()
                    .filter(slot -> slot.isAfter(start.plusSeconds(8))).count() >= 4);
        }
        finally {
            replicas.forEach(ConfigurableApplicationContext::close);
            if (database != TestDatabase.H2) {
                database.dropLockTable(new LockTableName(table));
            }
        }
        // Slots every replica fired for while all three ran: after the late one's first and before the first close.
        Map<Instant, List<String>> perSlotRuns = slotsOf(perSlot);
        Map<Instant, List<String>> lockOnlyRuns = slotsOf(lockOnly);
        List<Instant> settled = perSlotRuns.keySet().stream().filter(slot -> slot.isAfter(start.plusSeconds(8)))
                .toList();
        assertThat(settled).as("slots observed").hasSizeGreaterThanOrEqualTo(3);
        assertThat(perSlotRuns).as("per-slot job: replicas that ran each slot").allSatisfy((slot, ran) ->
                assertThat(ran).as("slot %s", slot).hasSize(1));
        for (int i = 1; i < settled.size(); i++) {
            assertThat(settled.get(i)).as("per-slot job: the slot after %s ran, none missed", settled.get(i - 1))
                    .isEqualTo(settled.get(i - 1).plusSeconds(PERIOD_SECONDS));
        }
        assertThat(lockOnlyRuns.values()).as("lock-only job: some slot ran on more than one replica")
                .anySatisfy(ran -> assertThat(ran).hasSizeGreaterThan(1));
    }

    private static Map<Instant, List<String>> slotsOf(String job) {
        return runs.stream().filter(run -> run.job().equals(job)).collect(Collectors.groupingBy(Run::slot,
                TreeMap::new, Collectors.mapping(Run::replica, Collectors.toList())));
    }

    private static ConfigurableApplicationContext replica(TestDatabase database, String url, String table,
            String offset, String perSlot, String lockOnly) {
        return new SpringApplicationBuilder(ReplicaApplication.class)
            .web(WebApplicationType.NONE)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .properties("spring.datasource.url=" + url, "spring.datasource.username=" + database.user(),
                    "spring.datasource.password=" + database.password(), "distributed-lock.table-name=" + table,
                    "distributed-lock.jdbc.initialize-schema=always", "replica.offset=" + offset,
                    "replica.name=replica" + offset, "distributed-lock.owner-prefix=replica" + offset,
                    "test.per-slot=" + perSlot, "test.lock-only=" + lockOnly)
            .run();
    }

    record Run(String job, Instant slot, String replica) {
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    @ImportAutoConfiguration({ DataSourceAutoConfiguration.class, AopAutoConfiguration.class,
            DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class, DistributedLockSlotAutoConfiguration.class })
    static class ReplicaApplication {

        @Bean
        ThreadPoolTaskScheduler taskScheduler(Environment environment) {
            ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
            scheduler.setPoolSize(2);
            scheduler.setClock(Clock.offset(Clock.systemUTC(),
                    Duration.parse(environment.getRequiredProperty("replica.offset"))));
            return scheduler;
        }

        @Bean
        Jobs jobs(Environment environment, ThreadPoolTaskScheduler taskScheduler) {
            return new Jobs(environment.getRequiredProperty("replica.name"), taskScheduler.getClock(),
                    environment.getRequiredProperty("test.per-slot"), environment.getRequiredProperty("test.lock-only"));
        }
    }

    /** The same 100 ms job, once claimed per slot and once guarded by the lock alone. */
    public static class Jobs {

        private final String replica;

        private final Clock clock;

        private final String perSlot;

        private final String lockOnly;

        Jobs(String replica, Clock clock, String perSlot, String lockOnly) {
            this.replica = replica;
            this.clock = clock;
            this.perSlot = perSlot;
            this.lockOnly = lockOnly;
        }

        @Scheduled(cron = "*/" + PERIOD_SECONDS + " * * * * *")
        @OncePerSlot(job = "${test.per-slot}", ttl = "PT10S")
        public void perSlot() throws InterruptedException {
            runs.add(new Run(perSlot, SlotExecution.current().orElseThrow().slot(), replica));
            TimeUnit.MILLISECONDS.sleep(100);
        }

        @Scheduled(cron = "*/" + PERIOD_SECONDS + " * * * * *")
        @DistributedLock(resource = "${test.lock-only}", ttl = "PT10S")
        public void lockOnly() throws InterruptedException {
            long periodMillis = PERIOD_SECONDS * 1000L;
            Instant slot = Instant.ofEpochMilli(Math.floorDiv(clock.millis() + 100, periodMillis) * periodMillis);
            runs.add(new Run(lockOnly, slot, replica));
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }
}
