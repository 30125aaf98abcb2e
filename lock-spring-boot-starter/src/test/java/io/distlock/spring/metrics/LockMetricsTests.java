package io.distlock.spring.metrics;

import java.time.Duration;
import java.time.YearMonth;
import java.util.List;
import java.util.UUID;

import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.LockRequest;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.OncePerSlot;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.spring.slot.DistributedLockSlotAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The lock meters after real lock traffic on embedded H2, the meters of declared locks at zero from start-up, and
 * the back-off without Micrometer.
 */
class LockMetricsTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, MetricsAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class, DistributedLockMetricsAutoConfiguration.class))
        .withPropertyValues("spring.datasource.url=jdbc:h2:mem:metrics-" + UUID.randomUUID())
        .withUserConfiguration(Registry.class, ReportsConfiguration.class);

    @Test
    void metersCountAcquireOutcomesHoldTimesActiveLeasesRenewalsAndLosses() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            LockManager locks = context.getBean(LockManager.class);
            Reports reports = context.getBean(Reports.class);

            assertThat(reports.generate(YearMonth.of(2026, 5))).isTrue();
            Lease held = locks.acquire(LockRequest.of("report:2026-05", Duration.ofMinutes(1)).withoutRenewal()
                    .withLabel("nightly")).orElseThrow();
            assertThat(reports.generate(YearMonth.of(2026, 5))).isNull();
            assertThat(registry.get("distributed.lock.active").gauge().value()).isEqualTo(1.0);
            held.renew(Duration.ofMinutes(2));
            held.release();
            Lease doomed = locks.tryAcquire("doomed", Duration.ofMillis(50)).orElseThrow();
            await().atMost(Duration.ofSeconds(3)).until(doomed::isLost);
            doomed.release();

            assertThat(registry.get("distributed.lock.acquire").tags("lock", "report:#{#month}", "outcome", "acquired")
                .timer().count()).isEqualTo(1);
            assertThat(registry.get("distributed.lock.acquire").tags("lock", "report:#{#month}", "outcome", "held")
                .timer().count()).isEqualTo(1);
            assertThat(registry.get("distributed.lock.acquire").tags("lock", "nightly", "outcome", "acquired")
                .timer().count()).isEqualTo(1);
            assertThat(registry.find("distributed.lock.acquire").tag("lock", "report:2026-05").timer())
                .as("evaluated resource names never become tags").isNull();
            assertThat(registry.get("distributed.lock.held").tag("lock", "report:#{#month}").timer().count())
                .isEqualTo(1);
            assertThat(registry.get("distributed.lock.held").tag("lock", "nightly").timer().count()).isEqualTo(1);
            assertThat(registry.get("distributed.lock.renewals").tags("lock", "nightly", "outcome", "renewed")
                .counter().count()).isEqualTo(1);
            assertThat(registry.get("distributed.lock.lost").tag("lock", "programmatic").counter().count())
                .isEqualTo(1);
            assertThat(registry.get("distributed.lock.active").gauge().value()).isZero();
        });
    }

    @Test
    void everyDeclaredLockAndSlotJobHasItsMetersAtZeroFromStartUp() {
        runner.withConfiguration(AutoConfigurations.of(DistributedLockSlotAutoConfiguration.class))
            .withUserConfiguration(NightlyExportConfiguration.class)
            .run(context -> {
                assertThat(context).hasNotFailed();
                MeterRegistry registry = context.getBean(MeterRegistry.class);
                for (String lock : List.of("report:#{#month}", "nightly-export")) {
                    assertThat(registry.get("distributed.lock.lost").tag("lock", lock).counter().count()).isZero();
                    assertThat(registry.get("distributed.lock.held").tag("lock", lock).timer().count()).isZero();
                    for (String outcome : List.of("acquired", "held", "error")) {
                        assertThat(registry.get("distributed.lock.acquire").tags("lock", lock, "outcome", outcome)
                            .timer().count()).isZero();
                    }
                    for (String outcome : List.of("renewed", "lost", "error")) {
                        assertThat(registry.get("distributed.lock.renewals").tags("lock", lock, "outcome", outcome)
                            .counter().count()).isZero();
                    }
                }
                for (String outcome : List.of("executed", "failed", "lost", "skipped", "missed", "crashed")) {
                    assertThat(registry.get("distributed.lock.slots").tags("lock", "nightly-export", "outcome",
                            outcome).counter().count()).isZero();
                }
                assertThat(registry.find("distributed.lock.slots").tag("lock", "report:#{#month}").counters())
                    .as("a plain lock has no slot meters").isEmpty();
            });
    }

    @Test
    void noMetersWithoutMicrometerOrARegistry() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class, DistributedLockMetricsAutoConfiguration.class))
            .withPropertyValues("spring.datasource.url=jdbc:h2:mem:metrics-" + UUID.randomUUID())
            .withUserConfiguration(Registry.class)
            .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LockMetrics.class));
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class, DistributedLockMetricsAutoConfiguration.class))
            .withPropertyValues("spring.datasource.url=jdbc:h2:mem:metrics-" + UUID.randomUUID())
            .run(context -> assertThat(context).hasNotFailed().hasSingleBean(LockManager.class)
                .doesNotHaveBean(LockMetrics.class));
    }

    @Configuration(proxyBeanMethods = false)
    static class Registry {

        @Bean
        SimpleMeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ReportsConfiguration {

        @Bean
        Reports reports() {
            return new Reports();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NightlyExportConfiguration {

        @Bean
        NightlyExport nightlyExport() {
            return new NightlyExport();
        }
    }

    static class NightlyExport {

        @OncePerSlot(job = "nightly-export")
        @Scheduled(cron = "0 0 3 * * *")
        public void export() {
        }
    }

    static class Reports {

        @DistributedLock(resource = "report:#{#month}", ttl = "PT1M")
        public Boolean generate(YearMonth month) {
            return true;
        }
    }
}
