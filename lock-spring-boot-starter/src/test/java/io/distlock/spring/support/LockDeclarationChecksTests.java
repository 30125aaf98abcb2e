package io.distlock.spring.support;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.OncePerSlot;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.spring.slot.DistributedLockSlotAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the start-up checks of every lock declaration run: with {@code @EnableScheduling}, before Spring's own
 * {@code @Scheduled} processing could fail the start on the first scheduled method it cannot schedule.
 */
class LockDeclarationChecksTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class,
                DistributedLockAopAutoConfiguration.class, DistributedLockSlotAutoConfiguration.class))
        .withUserConfiguration(Scheduling.class);

    @Test
    void everyWrongDeclarationIsReportedBeforeSpringsScheduledProcessingFailsOnOne() {
        // The bad cron comes first: Spring's @Scheduled processing would fail on it alone.
        runner.withBean(BadCron.class).withBean(BadLock.class).run(context -> {
            assertThat(context).hasFailed();
            Throwable failure = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
            assertThat(failure).isInstanceOf(InvalidLockDeclarationException.class);
            assertThat(((InvalidLockDeclarationException) failure).problems())
                .anyMatch(problem -> problem.startsWith("@OncePerSlot on " + BadCron.class.getName() + ".run()")
                        && problem.contains("0 0 25 * * *"))
                .anyMatch(problem -> problem.startsWith("@DistributedLock on " + BadLock.class.getName()
                        + ".run(): attribute 'ttl' = '30'"));
        });
    }

    @Test
    void validScheduledDeclarationsStillStart() {
        runner.withBean(Fine.class).run(context -> assertThat(context).hasNotFailed());
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    static class Scheduling {
    }

    /** A cron Spring cannot parse. */
    static class BadCron {

        @Scheduled(cron = "0 0 25 * * *", zone = "UTC")
        @OncePerSlot
        public void run() {
        }
    }

    /** A TTL without a unit. */
    static class BadLock {

        @DistributedLock(resource = "bad", ttl = "30")
        public void run() {
        }
    }

    /** A valid scheduled job. */
    static class Fine {

        @Scheduled(cron = "0 0 3 * * *", zone = "UTC")
        @OncePerSlot(job = "fine-before-scheduling")
        public void run() {
        }
    }
}
