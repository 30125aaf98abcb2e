package io.distlock.spring.slot;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.distlock.core.CrashPolicy;
import io.distlock.core.LockRepository;
import io.distlock.core.SlotExecution;
import io.distlock.core.SlotStore;
import io.distlock.jdbc.LockTableName;
import io.distlock.spring.OncePerSlot;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.spring.metrics.DistributedLockMetricsAutoConfiguration;
import io.distlock.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
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
 * {@code @OncePerSlot} jobs under real schedulers: a replica whose clock runs an hour ahead claims nothing and the
 * on-time replica runs every slot; a job on a {@code ScheduledExecutorService} named by {@code @Scheduled(scheduler
 * = …)} with a rate written {@code 200ms} runs; an at-least-once job whose lock is held elsewhere never holds a
 * one-thread scheduler longer than the short wait, and runs its slot once the holder's lease has run out.
 */
@ExtendWith(OutputCaptureExtension.class)
class OncePerSlotSchedulingTests {

    static final List<Run> runs = new CopyOnWriteArrayList<>();

    /** How long each task of the at-least-once replica's scheduler held its one thread. */
    static final List<Duration> taskDurations = new CopyOnWriteArrayList<>();

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aReplicaAnHourAheadClaimsNoSlotAndTheOnTimeReplicaRunsEverySlotInTurn(TestDatabase database,
            CapturedOutput output) {
        database.assumeAvailable();
        String table = "dl_ahead_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String url = database == TestDatabase.H2 ? "jdbc:h2:mem:" + table + ";DB_CLOSE_DELAY=-1" : database.url();
        String job = "ahead-" + table;
        List<ConfigurableApplicationContext> replicas = new ArrayList<>();
        try {
            ConfigurableApplicationContext ahead = replica(database, url, table, "test.every-second=" + job,
                    "replica.name=ahead", "replica.offset=PT1H");
            replicas.add(ahead);
            Instant joined = Instant.now();
            replicas.add(replica(database, url, table, "test.every-second=" + job, "replica.name=on-time",
                    "replica.offset=PT0S"));
            await().atMost(Duration.ofSeconds(30)).until(() -> slotsOf(job).keySet().stream()
                    .filter(slot -> slot.isAfter(joined.plusSeconds(2))).count() >= 5);
            MeterRegistry registry = ahead.getBean(MeterRegistry.class);
            assertThat(registry.get("distributed.lock.slots").tag("lock", job).tag("outcome", "early").counter().count())
                    .as("slots the ahead replica was refused").isGreaterThanOrEqualTo(5);
        }
        finally {
            replicas.forEach(ConfigurableApplicationContext::close);
            if (database != TestDatabase.H2) {
                database.dropLockTable(new LockTableName(table));
            }
        }
        Map<Instant, List<String>> ran = slotsOf(job);
        assertThat(ran.values()).as("replicas that ran each slot").allSatisfy(replicasOfSlot ->
                assertThat(replicasOfSlot).containsExactly("on-time"));
        // Every slot after the first ran on the on-time replica, or that replica told it missed (a scheduler thread
        // held up past a whole second on a busy machine): none was suppressed in silence by the replica ahead.
        List<Instant> slots = List.copyOf(ran.keySet());
        for (int i = 1; i < slots.size(); i++) {
            long gap = Duration.between(slots.get(i - 1), slots.get(i)).toSeconds() - 1;
            if (gap > 0) {
                assertThat(output.getOut()).as("the %d slot(s) between %s and %s told missed", gap, slots.get(i - 1),
                        slots.get(i)).containsPattern("Job '" + Pattern.quote(job) + "' missed " + gap
                                + " slots? .*before slot " + Pattern.quote(slots.get(i).toString()));
            }
        }
        assertThat(output.getOut()).contains("of job '" + job + "': it is PT")
                .contains("ahead of the store's clock").contains("this replica's clock (or its scheduler's) runs ahead");
    }

    @Test
    void aJobOnANamedScheduledExecutorServiceWithARateInMillisecondsRunsItsSlots(CapturedOutput output) {
        String table = "dl_exec_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String job = "executor-" + table;
        try (ConfigurableApplicationContext replica = replica(TestDatabase.H2,
                "jdbc:h2:mem:" + table + ";DB_CLOSE_DELAY=-1", table, "test.on-executor=" + job,
                "replica.name=executor", "replica.offset=PT0S")) {
            await().atMost(Duration.ofSeconds(20)).until(() -> slotsOf(job).size() >= 3);
        }
        assertThat(slotsOf(job).keySet()).allSatisfy(slot -> assertThat(slot.toEpochMilli() % 200).isZero());
        assertThat(output.getOut()).doesNotContain("BeanNotOfRequiredTypeException");
    }

    @Test
    void anAtLeastOnceJobWhoseLockIsHeldElsewhereNeverHoldsTheOneSchedulerThreadAndRunsItsSlotOnceTheLeaseRanOut(
            CapturedOutput output) {
        String table = "dl_alo_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String url = "jdbc:h2:mem:" + table + ";DB_CLOSE_DELAY=-1";
        String job = "at-least-once-" + table;
        taskDurations.clear();
        // The scheduler's clock starts one second into a minute, so the slot and its checks fall in one minute.
        Instant now = Instant.now();
        Duration offset = Duration.ofMillis(-(now.toEpochMilli() % 60_000) + 1_000);
        try (ConfigurableApplicationContext replica = replica(TestDatabase.H2, url, table, "test.at-least-once=" + job,
                "replica.name=survivor", "replica.offset=" + offset, "replica.threads=1",
                "replica.hold-first=PT4S")) {
            await().atMost(Duration.ofSeconds(30)).until(() -> !slotsOf(job).isEmpty());
            assertThat(SlotStore.of(replica.getBean(LockRepository.class)).recentSlotRuns(job, 10)).singleElement()
                    .satisfies(run -> assertThat(run.startedAt()).as("after the holder's lease ran out")
                            .isAfterOrEqualTo(HolderOfTheFirstSlot.expiresAt));
        }
        assertThat(slotsOf(job)).hasSize(1);
        assertThat(taskDurations).as("how long each task held the scheduler's one thread").isNotEmpty()
                .allSatisfy(duration -> assertThat(duration).isLessThan(Duration.ofSeconds(3)));
        assertThat(output.getOut()).contains("are on the scheduler 'taskScheduler', which has one thread");
    }

    private static Map<Instant, List<String>> slotsOf(String job) {
        return runs.stream().filter(run -> run.job().equals(job)).collect(Collectors.groupingBy(Run::slot,
                TreeMap::new, Collectors.mapping(Run::replica, Collectors.toList())));
    }

    private static ConfigurableApplicationContext replica(TestDatabase database, String url, String table,
            String... properties) {
        List<String> all = new ArrayList<>(List.of("spring.datasource.url=" + url,
                "spring.datasource.username=" + database.user(), "spring.datasource.password=" + database.password(),
                "distributed-lock.table-name=" + table, "distributed-lock.jdbc.initialize-schema=always"));
        all.addAll(List.of(properties));
        return new SpringApplicationBuilder(ReplicaApplication.class).web(WebApplicationType.NONE)
            .bannerMode(Banner.Mode.OFF).logStartupInfo(false).properties(all.toArray(String[]::new)).run();
    }

    record Run(String job, Instant slot, String replica) {
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    @ImportAutoConfiguration({ DataSourceAutoConfiguration.class, AopAutoConfiguration.class,
            DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class, DistributedLockMetricsAutoConfiguration.class,
            DistributedLockSlotAutoConfiguration.class })
    static class ReplicaApplication {

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        ThreadPoolTaskScheduler taskScheduler(Environment environment) {
            ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
            scheduler.setPoolSize(environment.getProperty("replica.threads", Integer.class, 2));
            scheduler.setClock(Clock.offset(Clock.system(ZoneOffset.UTC),
                    Duration.parse(environment.getRequiredProperty("replica.offset"))));
            scheduler.setTaskDecorator(task -> () -> {
                long start = System.nanoTime();
                try {
                    task.run();
                }
                finally {
                    taskDurations.add(Duration.ofNanos(System.nanoTime() - start));
                }
            });
            return scheduler;
        }

        @Bean
        @ConditionalOnProperty("test.every-second")
        EverySecond everySecond(Environment environment) {
            return new EverySecond(environment.getRequiredProperty("replica.name"));
        }

        @Bean(destroyMethod = "shutdownNow")
        @ConditionalOnProperty("test.on-executor")
        ScheduledExecutorService reports() {
            return Executors.newSingleThreadScheduledExecutor();
        }

        @Bean
        @ConditionalOnProperty("test.on-executor")
        OnExecutor onExecutor(Environment environment) {
            return new OnExecutor(environment.getRequiredProperty("replica.name"));
        }

        @Bean
        @ConditionalOnProperty("test.at-least-once")
        HolderOfTheFirstSlot holderOfTheFirstSlot(LockRepository repository, Environment environment) {
            return new HolderOfTheFirstSlot(repository, environment.getRequiredProperty("test.at-least-once"),
                    Duration.parse(environment.getRequiredProperty("replica.hold-first")));
        }

        @Bean
        @ConditionalOnProperty("test.at-least-once")
        AtLeastOnce atLeastOnce(Environment environment, HolderOfTheFirstSlot holder) {
            return new AtLeastOnce(environment.getRequiredProperty("replica.name"));
        }
    }

    /**
     * Another replica that took the job's lock before the first slot and stopped: nobody renews its lease. It takes
     * the lock once every singleton exists (the lock table too), before scheduled jobs start.
     */
    static final class HolderOfTheFirstSlot implements org.springframework.beans.factory.SmartInitializingSingleton {

        static volatile Instant expiresAt = Instant.MAX;

        private final LockRepository repository;

        private final String job;

        private final Duration ttl;

        HolderOfTheFirstSlot(LockRepository repository, String job, Duration ttl) {
            this.repository = repository;
            this.job = job;
            this.ttl = ttl;
        }

        @Override
        public void afterSingletonsInstantiated() {
            expiresAt = repository.acquire(job, "stopped-replica:" + UUID.randomUUID(), ttl).orElseThrow().expiresAt();
        }
    }

    /** A job every second in UTC. */
    public static class EverySecond {

        private final String replica;

        EverySecond(String replica) {
            this.replica = replica;
        }

        @Scheduled(cron = "* * * * * *", zone = "UTC")
        @OncePerSlot(job = "${test.every-second}", ttl = "PT10S")
        public void run() {
            runs.add(new Run(SlotExecution.current().orElseThrow().job(), SlotExecution.current().orElseThrow().slot(),
                    replica));
        }
    }

    /** A job on a {@code ScheduledExecutorService} bean, at a rate with a unit. */
    public static class OnExecutor {

        private final String replica;

        OnExecutor(String replica) {
            this.replica = replica;
        }

        @Scheduled(fixedRateString = "200ms", scheduler = "reports")
        @OncePerSlot(job = "${test.on-executor}", ttl = "PT10S")
        public void run() {
            runs.add(new Run(SlotExecution.current().orElseThrow().job(), SlotExecution.current().orElseThrow().slot(),
                    replica));
        }
    }

    /** An at-least-once job once a minute, on a scheduler with one thread. */
    public static class AtLeastOnce {

        private final String replica;

        AtLeastOnce(String replica) {
            this.replica = replica;
        }

        @Scheduled(fixedRate = 1, timeUnit = TimeUnit.MINUTES)
        @OncePerSlot(job = "${test.at-least-once}", ttl = "PT2S", onCrash = CrashPolicy.AT_LEAST_ONCE)
        public void run() {
            runs.add(new Run(SlotExecution.current().orElseThrow().job(), SlotExecution.current().orElseThrow().slot(),
                    replica));
        }
    }
}
