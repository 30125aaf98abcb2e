package io.distlock.spring.aop;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import javax.sql.DataSource;

import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.CurrentLease;
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
class DistributedLockInterceptorTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, AopAutoConfiguration.class,
                DistributedLockAutoConfiguration.class))
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

    /** A job declared on an interface. */
    public interface ReportJob {

        @DistributedLock(resource = "report:#{#month}")
        String generate(String month);

        @DistributedLock(resource = "#{#name}", ttl = "PT1S")
        String awaitLoss(String name, Consumer<Lease> steal);
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
