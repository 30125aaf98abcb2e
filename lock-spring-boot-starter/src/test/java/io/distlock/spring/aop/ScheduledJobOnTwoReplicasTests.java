package io.distlock.spring.aop;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import io.distlock.core.CurrentLease;
import io.distlock.core.Lease;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import org.junit.jupiter.api.Test;

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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two replicas of one application, each a Spring context with the same {@code @Scheduled} guarded job, share one
 * database: every tick runs the job exactly once, never twice at the same time.
 */
class ScheduledJobOnTwoReplicasTests {

    /** Ticks observed while both replicas ran. */
    private static final int TICKS = 5;

    /** Seconds between ticks; the job's minHold is a little under it. */
    private static final int PERIOD = 2;

    static final List<Execution> executions = new CopyOnWriteArrayList<>();

    static final List<Execution> heartbeats = new CopyOnWriteArrayList<>();

    static final AtomicInteger running = new AtomicInteger();

    static final AtomicInteger maxRunning = new AtomicInteger();

    @Test
    void eachTickRunsTheJobOnExactlyOneReplica() {
        String url = "jdbc:h2:mem:replicas-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        try (ConfigurableApplicationContext first = replica(url, "replica-a");
                ConfigurableApplicationContext second = replica(url, "replica-b")) {
            long firstSlot = slot(Instant.now()) + 1;
            await().atMost(Duration.ofSeconds(PERIOD * (TICKS + 4))).until(() -> executions.stream()
                .filter(execution -> execution.slot() > firstSlot).count() >= TICKS + 1);
            long lastSlot = slot(Instant.now()) - 1;
            Set<Long> slots = java.util.stream.LongStream.rangeClosed(firstSlot + 1, lastSlot).boxed()
                .collect(Collectors.toSet());
            Map<Long, List<String>> executed = byslot(executions, slots);
            Map<Long, List<String>> alive = byslot(heartbeats, slots);

            assertThat(slots).hasSizeGreaterThanOrEqualTo(TICKS);
            assertThat(alive).as("replicas that ticked, per slot").allSatisfy((slot, replicas) ->
                    assertThat(replicas).containsExactlyInAnyOrder("replica-a", "replica-b"));
            assertThat(executed).as("replicas that ran the job, per slot").hasSize(slots.size())
                .allSatisfy((slot, replicas) -> assertThat(replicas).hasSize(1));
            assertThat(maxRunning.get()).as("job executions at the same time").isOne();
            assertThat(executions).extracting(Execution::token).doesNotHaveDuplicates();
        }
    }

    private static Map<Long, List<String>> byslot(List<Execution> all, Set<Long> slots) {
        return all.stream().filter(execution -> slots.contains(execution.slot())).collect(Collectors.groupingBy(
                Execution::slot, TreeMap::new, Collectors.mapping(Execution::replica, Collectors.toList())));
    }

    private static ConfigurableApplicationContext replica(String url, String name) {
        return new SpringApplicationBuilder(ReplicaApplication.class)
            .web(WebApplicationType.NONE)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .properties("spring.datasource.url=" + url, "replica.name=" + name,
                    "distributed-lock.owner-prefix=" + name)
            .run();
    }

    static long slot(Instant instant) {
        return instant.getEpochSecond() / PERIOD;
    }

    record Execution(long slot, String replica, long token) {
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    @ImportAutoConfiguration({ DataSourceAutoConfiguration.class, AopAutoConfiguration.class,
            DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class })
    static class ReplicaApplication {

        @Bean
        TickJob tickJob(Environment environment) {
            return new TickJob(environment.getRequiredProperty("replica.name"));
        }
    }

    /** The job both replicas schedule at the same wall-clock instants. */
    public static class TickJob {

        private final String replica;

        TickJob(String replica) {
            this.replica = replica;
        }

        @Scheduled(cron = "*/" + PERIOD + " * * * * *")
        @DistributedLock(resource = "replicas:tick", ttl = "PT10S", minHold = "PT1.5S")
        public void tick() throws InterruptedException {
            Lease lease = CurrentLease.require();
            int now = running.incrementAndGet();
            maxRunning.accumulateAndGet(now, Math::max);
            executions.add(new Execution(slot(Instant.now()), replica, lease.token()));
            TimeUnit.MILLISECONDS.sleep(100);
            running.decrementAndGet();
        }

        @Scheduled(cron = "*/" + PERIOD + " * * * * *")
        public void heartbeat() {
            heartbeats.add(new Execution(slot(Instant.now()), replica, 0));
        }
    }
}
