package io.distlock.shedlock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockTableName;
import io.distlock.testsupport.TestDatabase;
import net.javacrumbs.shedlock.core.LockExtender;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A ShedLock application, unchanged but for its {@code LockProvider} bean, in a real Spring context on H2:
 * {@code @SchedulerLock} methods called at once from two threads run once, and {@code LockExtender} extends the
 * lock a running method holds.
 */
class SchedulerLockTests {

    @Test
    void aSchedulerLockMethodCalledFromTwoThreadsAtOnceRunsOnceAndCanExtendItsLock() throws Exception {
        LockTableName table = TestDatabase.H2.createLockTable();
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            context.registerBean("lockTable", LockTableName.class, () -> table);
            context.register(ShedLockApplication.class);
            context.refresh();
            Job job = context.getBean(Job.class);
            Probe probe = context.getBean(Probe.class);
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                List<Future<?>> calls = List.of(threads.submit(job::run), threads.submit(job::run));
                assertThat(probe.started.await(10, TimeUnit.SECONDS)).isTrue();
                LockRecord held = context.getBean(LockRepository.class).find("report").orElseThrow();
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).alias("the other call returned")
                        .until(() -> calls.stream().anyMatch(Future::isDone));
                probe.proceed.countDown();
                for (Future<?> call : calls) {
                    call.get(10, TimeUnit.SECONDS);
                }
                assertThat(probe.runs).as("the second call found the lock held and skipped").hasValue(1);
                assertThat(probe.extendedExpiry.get()).as("LockExtender renewed the held lock")
                        .isGreaterThan(held.expiresAt().toEpochMilli());
            }
            finally {
                threads.shutdownNow();
            }
        }
        finally {
            TestDatabase.H2.dropLockTable(table);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableSchedulerLock(defaultLockAtMostFor = "PT30S")
    static class ShedLockApplication {

        @Bean
        LockRepository lockRepository(LockTableName lockTable) {
            return JdbcLockRepository.builder(TestDatabase.H2.dataSource()).tableName(lockTable.value()).build();
        }

        @Bean
        LockProvider lockProvider(LockRepository lockRepository) {
            return new DistlockLockProvider(lockRepository);
        }

        @Bean
        Probe probe() {
            return new Probe();
        }

        @Bean
        Job job(LockRepository lockRepository, Probe probe) {
            return new Job(lockRepository, probe);
        }
    }

    /** What the job did, outside the job's proxy. */
    static class Probe {

        final AtomicInteger runs = new AtomicInteger();

        final java.util.concurrent.atomic.AtomicLong extendedExpiry = new java.util.concurrent.atomic.AtomicLong();

        final CountDownLatch started = new CountDownLatch(1);

        final CountDownLatch proceed = new CountDownLatch(1);
    }

    static class Job {

        private final LockRepository repository;

        private final Probe probe;

        Job(LockRepository repository, Probe probe) {
            this.repository = repository;
            this.probe = probe;
        }

        @SchedulerLock(name = "report", lockAtMostFor = "PT10S")
        public void run() {
            probe.runs.incrementAndGet();
            probe.started.countDown();
            try {
                probe.proceed.await(10, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            LockExtender.extendActiveLock(Duration.ofSeconds(20), Duration.ZERO);
            probe.extendedExpiry.set(repository.find("report").orElseThrow().expiresAt().toEpochMilli());
        }
    }
}
