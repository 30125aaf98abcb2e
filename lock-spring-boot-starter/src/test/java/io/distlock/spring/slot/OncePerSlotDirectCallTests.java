package io.distlock.spring.slot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.core.CurrentLease;
import io.distlock.core.Lease;
import io.distlock.core.LockRepository;
import io.distlock.core.SlotExecution;
import io.distlock.core.SlotRun;
import io.distlock.core.SlotStore;
import io.distlock.jdbc.LockTableName;
import io.distlock.spring.OncePerSlot;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.testsupport.TestDatabase;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An {@code @OncePerSlot} method called by application code, not by Spring's scheduler, is for no slot: it claims
 * none (so it never takes a slot from the scheduled run) and runs under the job's lock (so it never overlaps a
 * scheduled run anywhere). A job on a bean proxied through its interface runs its slots through that proxy.
 */
class OncePerSlotDirectCallTests {

    static final List<Run> runs = new CopyOnWriteArrayList<>();

    static final AtomicInteger inside = new AtomicInteger();

    static final AtomicInteger mostInside = new AtomicInteger();

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aDirectCallClaimsNoSlotAndRunsUnderTheJobsLock(TestDatabase database) {
        database.assumeAvailable();
        String table = table("dl_direct_");
        String job = "direct-" + table;
        try (ConfigurableApplicationContext context = replica(database, table, "test.yearly=" + job)) {
            runs.clear();
            context.getBean(Yearly.class).run();
            assertThat(runs).singleElement().satisfies(run -> {
                assertThat(run.slot()).as("a direct call is for no slot").isNull();
                assertThat(run.lockedResource()).as("it runs under the job's lock").isEqualTo(job);
            });
            assertThat(SlotStore.of(context.getBean(LockRepository.class)).recentSlotRuns(job, 10))
                    .as("the slots it claimed").isEmpty();
        }
        finally {
            drop(database, table);
        }
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void directCallsRacingTheScheduledRunsNeitherOverlapThemNorTakeTheirSlots(TestDatabase database)
            throws Exception {
        database.assumeAvailable();
        String table = table("dl_race_");
        String job = "race-" + table;
        runs.clear();
        mostInside.set(0);
        List<SlotRun> history;
        List<Run> direct = new ArrayList<>();
        try (ConfigurableApplicationContext context = replica(database, table, "test.fast=" + job)) {
            Fast fast = context.getBean(Fast.class);
            Thread caller = new Thread(() -> {
                for (int call = 0; call < 15; call++) {
                    fast.run();
                }
            }, "direct-caller");
            caller.start();
            caller.join(60_000);
            assertThat(caller.isAlive()).as("the direct caller finished").isFalse();
            await().atMost(Duration.ofSeconds(20)).until(() -> scheduled(job).size() >= 5);
            ThreadPoolTaskScheduler scheduler = context.getBean(ThreadPoolTaskScheduler.class);
            scheduler.shutdown();
            assertThat(scheduler.getScheduledExecutor().awaitTermination(20, java.util.concurrent.TimeUnit.SECONDS))
                    .as("the scheduler stopped").isTrue();
            history = SlotStore.of(context.getBean(LockRepository.class)).recentSlotRuns(job, 50);
        }
        finally {
            drop(database, table);
        }
        runs.stream().filter(run -> run.thread().equals("direct-caller")).forEach(direct::add);
        assertThat(direct).as("direct calls, each run").hasSize(15).allSatisfy(run -> {
            assertThat(run.slot()).isNull();
            assertThat(run.lockedResource()).isEqualTo(job);
        });
        assertThat(mostInside).as("runs at once: the job's lock excludes direct calls and slots alike").hasValue(1);
        assertThat(history).as("every claimed slot was claimed by a scheduled run").extracting(SlotRun::slot)
                .containsExactlyInAnyOrderElementsOf(scheduled(job).stream().map(Run::slot).toList());
    }

    @Test
    void aJobOnABeanProxiedThroughItsInterfaceRunsItsSlotsThroughTheProxy() {
        String table = table("dl_iface_");
        String job = "interface-" + table;
        runs.clear();
        try (ConfigurableApplicationContext context = replica(TestDatabase.H2, table, "test.interface=" + job,
                "spring.aop.proxy-target-class=false")) {
            assertThat(AopUtils.isJdkDynamicProxy(context.getBean(Job.class))).isTrue();
            await().atMost(Duration.ofSeconds(20)).until(() -> scheduled(job).size() >= 3);
            assertThat(SlotStore.of(context.getBean(LockRepository.class)).recentSlotRuns(job, 50))
                    .extracting(SlotRun::slot).containsAll(scheduled(job).stream().map(Run::slot).toList());
        }
    }

    @Test
    void aMethodWithTwoTriggersFiringTogetherRunsEachSlotOnce() {
        String table = table("dl_twice_");
        String job = "twice-" + table;
        runs.clear();
        try (ConfigurableApplicationContext context = replica(TestDatabase.H2, table, "test.twice=" + job)) {
            await().atMost(Duration.ofSeconds(20)).until(() -> scheduled(job).size() >= 5);
            context.getBean(ThreadPoolTaskScheduler.class).shutdown();
        }
        assertThat(scheduled(job)).extracting(Run::slot).as("slots run, each once").doesNotHaveDuplicates();
    }

    private static List<Run> scheduled(String job) {
        return runs.stream().filter(run -> run.slot() != null && job.equals(run.lockedResource())).toList();
    }

    private static String table(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    private static void drop(TestDatabase database, String table) {
        if (database != TestDatabase.H2) {
            database.dropLockTable(new LockTableName(table));
        }
    }

    private static ConfigurableApplicationContext replica(TestDatabase database, String table, String... properties) {
        String url = database == TestDatabase.H2 ? "jdbc:h2:mem:" + table + ";DB_CLOSE_DELAY=-1" : database.url();
        List<String> all = new ArrayList<>(List.of("spring.datasource.url=" + url,
                "spring.datasource.username=" + database.user(), "spring.datasource.password=" + database.password(),
                "spring.datasource.hikari.maximum-pool-size=4", "distributed-lock.table-name=" + table,
                "distributed-lock.jdbc.initialize-schema=always"));
        all.addAll(List.of(properties));
        return new SpringApplicationBuilder(ReplicaApplication.class).web(WebApplicationType.NONE)
            .bannerMode(Banner.Mode.OFF).logStartupInfo(false).properties(all.toArray(String[]::new)).run();
    }

    /** What one run saw: its thread, its slot if it had one, and the resource of the lease it ran under. */
    record Run(String thread, java.time.@Nullable Instant slot, @Nullable String lockedResource) {

        static Run now() {
            return new Run(Thread.currentThread().getName(),
                    SlotExecution.current().map(SlotExecution::slot).orElse(null),
                    CurrentLease.get().map(Lease::resource).orElse(null));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    @ImportAutoConfiguration({ DataSourceAutoConfiguration.class, AopAutoConfiguration.class,
            DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class,
            DistributedLockAopAutoConfiguration.class, DistributedLockSlotAutoConfiguration.class })
    static class ReplicaApplication {

        @Bean
        ThreadPoolTaskScheduler taskScheduler() {
            ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
            scheduler.setPoolSize(2);
            return scheduler;
        }

        @Bean
        @ConditionalOnProperty("test.yearly")
        Yearly yearly() {
            return new Yearly();
        }

        @Bean
        @ConditionalOnProperty("test.fast")
        Fast fast() {
            return new Fast();
        }

        @Bean
        @ConditionalOnProperty("test.twice")
        Twice twice() {
            return new Twice();
        }

        @Bean
        @ConditionalOnProperty("test.interface")
        Job job() {
            return new InterfaceJob();
        }
    }

    /** A job whose next slot is months away: only a direct call runs it during the test. */
    public static class Yearly {

        @Scheduled(cron = "0 0 0 1 1 *", zone = "UTC")
        @OncePerSlot(job = "${test.yearly}", ttl = "PT10S")
        public void run() {
            runs.add(Run.now());
        }
    }

    /** A job every 200 ms whose runs take a while, so that direct calls meet them. */
    public static class Fast {

        @Scheduled(fixedRate = 200)
        @OncePerSlot(job = "${test.fast}", ttl = "PT10S")
        public void run() {
            int now = inside.incrementAndGet();
            mostInside.accumulateAndGet(now, Math::max);
            try {
                runs.add(Run.now());
                // The work itself: long enough for a direct call to arrive while it runs.
                Thread.sleep(30);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            finally {
                inside.decrementAndGet();
            }
        }
    }

    /** A job with two triggers that fire in the same windows. */
    public static class Twice {

        @Scheduled(fixedRate = 300)
        @Scheduled(fixedRate = 300, initialDelay = 50)
        @OncePerSlot(job = "${test.twice}", ttl = "PT10S")
        public void run() {
            runs.add(Run.now());
        }
    }

    /** A job's interface: the proxy implements it. */
    public interface Job {

        void run();
    }

    /** A job proxied through its interface. */
    public static class InterfaceJob implements Job {

        @Override
        @Scheduled(fixedRate = 300)
        @OncePerSlot(job = "${test.interface}", ttl = "PT10S")
        public void run() {
            runs.add(Run.now());
        }
    }
}
