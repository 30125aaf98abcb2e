package io.distlock.spring.slot;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import io.distlock.core.CrashPolicy;
import io.distlock.core.SlotExecution;
import io.distlock.spring.OncePerSlot;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * A replica with one {@code @OncePerSlot} job every five seconds, {@code crash.job}, under the crash policy
 * {@code crash.policy}, with a {@code crash.ttl} lease, its scheduler's clock offset by {@code crash.clock-offset}.
 * Started as a JVM of its own ({@link #main}) with {@code crash.block=true}, the job prints {@code STARTED slot=…
 * run=… token=… owner=…} once it runs and then blocks until the process is killed; in the test's JVM the same job
 * records each run in {@link #RUNS} and returns.
 */
public final class CrashingReplica {

    /** A line the blocking job prints when it starts running a slot. */
    static final String STARTED = "STARTED";

    /** The runs of the job in this JVM (the non-blocking replica's), in order. */
    static final List<Run> RUNS = new CopyOnWriteArrayList<>();

    private CrashingReplica() {
    }

    /**
     * Starts the replica; it runs until the process ends.
     *
     * @param args Spring Boot properties: {@code --spring.datasource.url=…}, {@code --crash.job=…} and the others
     */
    public static void main(String[] args) {
        new SpringApplicationBuilder(ReplicaApplication.class).web(WebApplicationType.NONE).run(args);
    }

    /**
     * One run of the job.
     *
     * @param slot the slot it ran for
     * @param run 1, or 2 for a re-run after a crash
     * @param token its lease's fencing token
     */
    record Run(Instant slot, int run, long token) {
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
                    Duration.parse(environment.getProperty("crash.clock-offset", "PT0S"))));
            return scheduler;
        }

        @Bean
        @ConditionalOnProperty(name = "crash.policy", havingValue = "AT_MOST_ONCE")
        AtMostOnceJob atMostOnceJob(Environment environment) {
            return new AtMostOnceJob(environment.getProperty("crash.block", Boolean.class, false));
        }

        @Bean
        @ConditionalOnProperty(name = "crash.policy", havingValue = "AT_LEAST_ONCE")
        AtLeastOnceJob atLeastOnceJob(Environment environment) {
            return new AtLeastOnceJob(environment.getProperty("crash.block", Boolean.class, false));
        }
    }

    /** The job under {@link CrashPolicy#AT_MOST_ONCE}. */
    public static class AtMostOnceJob {

        private final boolean block;

        AtMostOnceJob(boolean block) {
            this.block = block;
        }

        @Scheduled(cron = "*/5 * * * * *")
        @OncePerSlot(job = "${crash.job}", ttl = "${crash.ttl}", onCrash = CrashPolicy.AT_MOST_ONCE)
        public void run() throws InterruptedException {
            work(block);
        }
    }

    /** The job under {@link CrashPolicy#AT_LEAST_ONCE}. */
    public static class AtLeastOnceJob {

        private final boolean block;

        AtLeastOnceJob(boolean block) {
            this.block = block;
        }

        @Scheduled(cron = "*/5 * * * * *")
        @OncePerSlot(job = "${crash.job}", ttl = "${crash.ttl}", onCrash = CrashPolicy.AT_LEAST_ONCE)
        public void run() throws InterruptedException {
            work(block);
        }
    }

    private static void work(boolean block) throws InterruptedException {
        SlotExecution execution = SlotExecution.current().orElseThrow();
        if (!block) {
            RUNS.add(new Run(execution.slot(), execution.run(), execution.lease().token()));
            return;
        }
        System.out.println(STARTED + " slot=" + execution.slot() + " run=" + execution.run() + " token="
                + execution.lease().token() + " owner=" + execution.lease().owner());
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
