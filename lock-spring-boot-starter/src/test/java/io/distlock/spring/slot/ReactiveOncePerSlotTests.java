package io.distlock.spring.slot;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import io.distlock.core.LockRepository;
import io.distlock.core.SlotExecution;
import io.distlock.core.SlotRun;
import io.distlock.core.SlotRunOutcome;
import io.distlock.core.SlotStore;
import io.distlock.jdbc.LockTableName;
import io.distlock.spring.LockContext;
import io.distlock.spring.OncePerSlot;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Reactive {@code @OncePerSlot} jobs, which Spring's scheduler subscribes to: two replicas run every slot of a
 * {@code Mono} job once between them, each run's finish recorded when its work completed (not when the method
 * returned its {@code Mono}), with the slot and the lease in the work's Reactor context; a {@code Flux} job's failure
 * is recorded {@code FAILED}.
 */
class ReactiveOncePerSlotTests {

    static final List<Run> runs = new CopyOnWriteArrayList<>();

    @ParameterizedTest
    @EnumSource(value = TestDatabase.class, names = { "H2", "POSTGRESQL" })
    void twoReplicasRunEverySlotOfAMonoJobOnceAndEachRunEndsWithItsWork(TestDatabase database) {
        database.assumeAvailable();
        runs.clear();
        String tag = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        LockTableName table = new LockTableName("dl_rx_" + tag);
        String job = "rx-" + tag;
        List<SlotRun> history;
        try (ConfigurableApplicationContext first = replica(database, table, job, "a");
                ConfigurableApplicationContext second = replica(database, table, job, "b")) {
            Instant joined = Instant.now().plusSeconds(1);
            await().atMost(Duration.ofSeconds(30)).until(() -> runs.stream().filter(run -> run.slot().isAfter(joined))
                    .map(Run::slot).distinct().count() >= 4);
            history = SlotStore.of(first.getBean(LockRepository.class)).recentSlotRuns(job, 50);
        }
        finally {
            if (database != TestDatabase.H2) {
                database.dropLockTable(table);
            }
        }
        Map<Instant, List<Run>> bySlot = runs.stream().collect(Collectors.groupingBy(Run::slot, TreeMap::new,
                Collectors.toList()));
        assertThat(bySlot.values()).as("runs of each slot").allSatisfy(slot -> assertThat(slot).hasSize(1));
        assertThat(runs).as("the lease in each run's context").allMatch(run -> run.token() > 0);
        List<SlotRun> finished = history.stream().filter(run -> run.outcome() != SlotRunOutcome.RUNNING).toList();
        assertThat(finished).isNotEmpty().allSatisfy(run -> {
            assertThat(run.outcome()).isEqualTo(SlotRunOutcome.SUCCEEDED);
            // The work takes 400 ms after the method returned its Mono: the finish is recorded after it.
            assertThat(Duration.between(run.startedAt(), run.finishedAt())).isGreaterThanOrEqualTo(
                    Duration.ofMillis(350));
        });
    }

    @ParameterizedTest
    @EnumSource(value = TestDatabase.class, names = { "H2" })
    void aFluxJobThatFailsIsRecordedFailed(TestDatabase database) {
        String tag = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        String job = "rx-" + tag;
        try (ConfigurableApplicationContext replica = replica(database, new LockTableName("dl_rx_" + tag), job,
                "failing")) {
            LockRepository repository = replica.getBean(LockRepository.class);
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(SlotStore.of(repository)
                    .recentSlotRuns(job, 50))
                    .extracting(SlotRun::outcome).contains(SlotRunOutcome.FAILED));
        }
    }

    private static ConfigurableApplicationContext replica(TestDatabase database, LockTableName table, String job,
            String name) {
        String url = database == TestDatabase.H2 ? "jdbc:h2:mem:" + table + ";DB_CLOSE_DELAY=-1" : database.url();
        return new SpringApplicationBuilder(ReactiveJobApplication.class).web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF).logStartupInfo(false)
                .properties("spring.datasource.url=" + url, "spring.datasource.username=" + database.user(),
                        "spring.datasource.password=" + database.password(), "distributed-lock.table-name=" + table,
                        "spring.datasource.hikari.maximum-pool-size=4",
                        "distributed-lock.jdbc.initialize-schema=always", "spring.task.scheduling.pool.size=2",
                        "test.job=" + job, "test.replica=" + name)
                .run();
    }

    record Run(Instant slot, String replica, long token) {
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @EnableScheduling
    static class ReactiveJobApplication {

        @Bean
        Object job(Environment environment) {
            String replica = environment.getRequiredProperty("test.replica");
            return replica.equals("failing") ? new FailingFluxJob() : new MonoJob(replica);
        }
    }

    /** Every second, work that goes on for 400 ms after the method returned. */
    public static class MonoJob {

        private final String replica;

        MonoJob(String replica) {
            this.replica = replica;
        }

        @Scheduled(cron = "* * * * * *", zone = "UTC")
        @OncePerSlot(job = "${test.job}", ttl = "PT5S")
        public Mono<Void> run() {
            SlotExecution assembled = SlotExecution.current().orElseThrow();
            return Mono.delay(Duration.ofMillis(400)).then(LockContext.slot().zipWith(LockContext.lease()))
                    .doOnNext(context -> {
                        assertThat(context.getT1()).isEqualTo(assembled);
                        runs.add(new Run(context.getT1().slot(), replica, context.getT2().token()));
                    }).then();
        }
    }

    /** Every second, a Flux that fails after its first value. */
    public static class FailingFluxJob {

        @Scheduled(cron = "* * * * * *", zone = "UTC")
        @OncePerSlot(job = "${test.job}", ttl = "PT5S")
        public Flux<String> run() {
            return Flux.concat(Mono.just("first"), Mono.delay(Duration.ofMillis(100))
                    .then(Mono.error(new IllegalStateException("the job failed"))));
        }
    }
}
