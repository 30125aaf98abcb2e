package io.distlock.spring.aop;

import java.time.Duration;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.SchedulingConfigurer;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A guarded {@code @Scheduled} job is observed as {@code distributed.lock}, nested in Spring's own
 * {@code tasks.scheduled.execution} observation, when the application has an {@code ObservationRegistry}.
 */
class ScheduledLockObservationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class))
        .withUserConfiguration(ObservedScheduling.class);

    @Test
    void aGuardedScheduledRunIsObservedInsideTheScheduledTasksObservation() {
        runner.run(context -> {
            TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(registry)
                    .hasObservationWithNameEqualTo("distributed.lock.call").that()
                    .hasLowCardinalityKeyValue("lock", "observed-job")
                    .hasLowCardinalityKeyValue("outcome", "ran")
                    .hasParentObservationContextMatching(parent -> parent.getName()
                            .equals("tasks.scheduled.execution")));
        });
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    static class ObservedScheduling implements SchedulingConfigurer {

        private final TestObservationRegistry registry = TestObservationRegistry.create();

        @Bean
        TestObservationRegistry observationRegistry() {
            return registry;
        }

        @Bean
        ObservedJob observedJob() {
            return new ObservedJob();
        }

        @Override
        public void configureTasks(org.springframework.scheduling.config.ScheduledTaskRegistrar registrar) {
            registrar.setObservationRegistry(registry);
        }
    }

    /** A job guarded by a lock, every 200 ms. */
    static class ObservedJob {

        @Scheduled(fixedDelay = 200)
        @DistributedLock(resource = "observed-job")
        public void run() {
        }
    }
}
