package io.distlock.spring.aop;

import io.distlock.core.LockRepository;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.scheduling.annotation.Scheduled;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import javax.sql.DataSource;

import io.distlock.core.CurrentLease;
import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the interceptor reaches beans under each proxying set-up, and what it does on a lost lease without
 * {@code distributed-lock.interrupt-on-loss}. Independent of the database, so on embedded H2 only.
 */
@org.junit.jupiter.api.extension.ExtendWith(org.springframework.boot.test.system.OutputCaptureExtension.class)
class DistributedLockInterceptorTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, AopAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class))
        .withBean(ReportJob.class, MonthlyReportJob::new);

    @Test
    void guardsAnInterfaceMethodThroughAJdkProxy() {
        runner.withPropertyValues("spring.aop.proxy-target-class=false").run(context -> {
            ReportJob job = context.getBean(ReportJob.class);
            assertThat(AopUtils.isJdkDynamicProxy(job)).isTrue();
            assertThat(job.generate("2026-05")).isEqualTo("report:2026-05");
        });
    }

    @Test
    void guardsAnInterfaceMethodThroughAClassProxy() {
        runner.run(context -> {
            ReportJob job = context.getBean(ReportJob.class);
            assertThat(AopUtils.isCglibProxy(job)).isTrue();
            assertThat(job.generate("2026-06")).isEqualTo("report:2026-06");
        });
    }

    @Test
    void guardsAMethodWhoseComposedAnnotationCarriesTheLockWithItsOwnAttributes() {
        runner.withBean(Composed.class).run(context -> {
            Composed composed = context.getBean(Composed.class);
            assertThat(AopUtils.isAopProxy(composed)).isTrue();
            assertThat(composed.run("2026-09")).isEqualTo("composed:2026-09");
        });
    }

    @Test
    void aWrongComposedDeclarationFailsTheStartLikeADirectOne() {
        runner.withBean(BadComposed.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining("@DistributedLock on " + BadComposed.class.getName() + ".run(String): "
                        + "attribute 'ttl' = '30'"));
    }

    @Test
    void guardsWithoutTheAspectJWeaver() {
        runner.withClassLoader(new FilteredClassLoader("org.aspectj"))
            .run(context -> assertThat(context.getBean(ReportJob.class).generate("2026-07"))
                .isEqualTo("report:2026-07"));
    }

    @Test
    void guardsWhenBootsAutoProxyingIsOff() {
        runner.withPropertyValues("spring.aop.auto=false")
            .run(context -> assertThat(context.getBean(ReportJob.class).generate("2026-08"))
                .isEqualTo("report:2026-08"));
    }

    @Test
    void lostLeaseDoesNotInterruptTheMethodByDefault() {
        runner.run(context -> {
            LockManager lockManager = context.getBean(LockManager.class);
            JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
            ReportJob job = context.getBean(ReportJob.class);
            Lease[] thief = new Lease[1];
            String outcome = job.awaitLoss("lost-default", lease -> {
                jdbc.update("UPDATE distributed_locks SET expires_at = acquired_at WHERE resource = ?",
                        lease.resource());
                thief[0] = lockManager.tryAcquire(lease.resource(), Duration.ofSeconds(30)).orElseThrow();
            });
            assertThat(outcome).isEqualTo("lost, not interrupted");
            thief[0].release();
        });
    }

    @Test
    void aScheduledMethodWhoseLockStoreFailsIsSkippedWithOneWarnLineAndOthersGetTheFailure(CapturedOutput output) {
        FailingStore store = new FailingStore();
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class))
            .withBean(LockRepository.class, () -> store)
            .withBean(Ticks.class, Ticks::new)
            .run(context -> {
                Ticks ticks = context.getBean(Ticks.class);
                store.failing = true;
                for (int run = 0; run < 3; run++) {
                    assertThat(ticks.tick()).as("skipped").isNull();
                }
                assertThat(ticks.runs()).as("the method did not run").isZero();
                assertThat(output.getOut().lines().filter(line -> line.contains(" WARN ") && line.contains("tick()")))
                    .singleElement().asString()
                    .contains("Skipped " + Ticks.class.getName() + ".tick(): the lock store did not answer for the "
                            + "lock on 'tick'")
                    .contains("store down");
                assertThatExceptionOfType(DataAccessResourceFailureException.class).as("not scheduled: thrown")
                    .isThrownBy(ticks::direct);
                store.failing = false;
                assertThat(ticks.tick()).isEqualTo("ran");
                assertThat(output.getOut()).contains("Taking the lock of " + Ticks.class.getName()
                        + ".tick() works again after 3 failures");
                assertThatExceptionOfType(DataAccessResourceFailureException.class)
                    .as("the method's own failure is the caller's, scheduled or not").isThrownBy(ticks::failingWork);
            });
    }

    /** A store whose acquire fails while told to, as one whose database went away. */
    static final class FailingStore extends io.distlock.core.DelegatingLockRepository {

        volatile boolean failing;

        FailingStore() {
            super(new InMemoryLockRepository());
        }

        @Override
        public java.util.Optional<io.distlock.core.LockRecord> acquire(String resource, String owner, Duration ttl) {
            if (failing) {
                throw new DataAccessResourceFailureException("store down");
            }
            return super.acquire(resource, owner, ttl);
        }
    }

    /** Scheduled and unscheduled guarded methods. */
    public static class Ticks {

        private final java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();

        public int runs() {
            return runs.get();
        }

        @Scheduled(fixedRate = 3_600_000, initialDelay = 3_600_000)
        @DistributedLock(resource = "tick")
        public String tick() {
            runs.incrementAndGet();
            return "ran";
        }

        @DistributedLock(resource = "direct")
        public String direct() {
            return "ran";
        }

        @Scheduled(fixedRate = 3_600_000, initialDelay = 3_600_000)
        @DistributedLock(resource = "failing-work")
        public String failingWork() {
            throw new DataAccessResourceFailureException("the work's own database call");
        }
    }

    /** A job declared on an interface. */
    public interface ReportJob {

        @DistributedLock(resource = "report:#{#month}")
        String generate(String month);

        @DistributedLock(resource = "#{#name}", ttl = "PT1S")
        String awaitLoss(String name, Consumer<Lease> steal);
    }

    /** An application's own annotation carrying the lock, its resource given through an alias. */
    @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
    @java.lang.annotation.Target(java.lang.annotation.ElementType.METHOD)
    @DistributedLock(resource = "unused")
    public @interface MonthlyLock {

        @org.springframework.core.annotation.AliasFor(annotation = DistributedLock.class, attribute = "resource")
        String value();

        @org.springframework.core.annotation.AliasFor(annotation = DistributedLock.class, attribute = "ttl")
        String ttl() default "PT30S";
    }

    /** Guarded through the composed annotation. */
    public static class Composed {

        @MonthlyLock("composed:#{#month}")
        public String run(String month) {
            return CurrentLease.require().resource();
        }
    }

    /** A composed declaration with a TTL without a unit. */
    public static class BadComposed {

        @MonthlyLock(value = "bad:#{#month}", ttl = "30")
        public String run(String month) {
            return month;
        }
    }

    /** Its implementation, without annotations of its own. */
    public static class MonthlyReportJob implements ReportJob {

        @Override
        public String generate(String month) {
            return CurrentLease.require().resource();
        }

        @Override
        public String awaitLoss(String name, Consumer<Lease> steal) {
            Lease lease = CurrentLease.require();
            steal.accept(lease);
            CountDownLatch never = new CountDownLatch(1);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!lease.isLost() && System.nanoTime() < deadline) {
                try {
                    never.await(20, TimeUnit.MILLISECONDS);
                }
                catch (InterruptedException ex) {
                    return "interrupted";
                }
            }
            return lease.isLost() ? "lost, not interrupted" : "not lost";
        }
    }
}
