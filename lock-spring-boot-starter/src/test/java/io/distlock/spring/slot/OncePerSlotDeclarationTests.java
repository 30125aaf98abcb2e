package io.distlock.spring.slot;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.OncePerSlot;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code @OncePerSlot} declaration is checked at start-up; a mistake fails the start naming class, method and
 * attribute.
 */
class OncePerSlotDeclarationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                DistributedLockAutoConfiguration.class, DistributedLockSlotAutoConfiguration.class));

    @Test
    void aMethodThatIsNotScheduledIsRefused() {
        runner.withBean(NotScheduled.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining("@OncePerSlot on " + NotScheduled.class.getName() + ".run()")
                .hasMessageContaining("is not @Scheduled"));
    }

    @Test
    void aFixedDelayIsRefusedBecauseItDefinesNoSlots() {
        runner.withBean(FixedDelay.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining(FixedDelay.class.getName() + ".run()")
                .hasMessageContaining("fixed delay"));
    }

    @Test
    void aMethodAlsoGuardedByDistributedLockIsRefused() {
        runner.withBean(Both.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining("also @DistributedLock"));
    }

    @Test
    void aBadTtlAndABadCronAreRefusedNamingTheAttribute() {
        runner.withBean(BadTtl.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining("attribute 'ttl' = 'PT5X'"));
        runner.withBean(BadCron.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining("cron '0 0 25 * * *'"));
    }

    @Test
    void durationsWithoutAUnitAreRefusedRatherThanReadAsMilliseconds() {
        String unitless = "has no unit: a number alone is not read as milliseconds; use ISO-8601 such as PT30S, or a "
                + "number with a unit such as 30s or 500ms (ns, us, ms, s, m, h, d)";
        runner.withBean(BareNumbers.class).withPropertyValues("jobs.max-hold=7200")
            .run(context -> assertThat(context).getFailure()
                .hasMessageContaining("@OncePerSlot on " + BareNumbers.class.getName() + ".run(): attribute 'ttl' = "
                        + "'30' " + unitless)
                .hasMessageContaining("attribute 'maxHold' = '${jobs.max-hold}' (resolved '7200') " + unitless));
    }

    @Test
    void cronAndFixedRateMethodsStart() {
        runner.withBean(Fine.class).run(context -> assertThat(context).hasNotFailed()
                .hasSingleBean(OncePerSlotAdvisor.class));
    }

    @Test
    void aLockTableWithoutTheSlotColumnsFailsTheStartNamingTheUpgradeScript() {
        runner.withPropertyValues("spring.datasource.url=jdbc:h2:mem:old-" + java.util.UUID.randomUUID()
                + ";DB_CLOSE_DELAY=-1;INIT=CREATE SEQUENCE IF NOT EXISTS distributed_locks_token_seq\\;"
                + "CREATE TABLE IF NOT EXISTS distributed_locks (resource VARCHAR(255) PRIMARY KEY, owner VARCHAR(255) "
                + "NOT NULL, token BIGINT NOT NULL, acquired_at TIMESTAMP(6) WITH TIME ZONE NOT NULL, expires_at "
                + "TIMESTAMP(6) WITH TIME ZONE NOT NULL)", "distributed-lock.jdbc.initialize-schema=never")
            .withBean(Fine.class)
            .run(context -> assertThat(context).getFailure().hasStackTraceContaining("upgrade-slots-h2.sql"));
    }

    /** Not scheduled. */
    static class NotScheduled {

        @OncePerSlot
        public void run() {
        }
    }

    /** A fixed delay. */
    static class FixedDelay {

        @Scheduled(fixedDelay = 1000)
        @OncePerSlot
        public void run() {
        }
    }

    /** Both annotations. */
    static class Both {

        @Scheduled(cron = "0 * * * * *")
        @OncePerSlot
        @DistributedLock(resource = "both")
        public void run() {
        }
    }

    /** A bad TTL. */
    static class BadTtl {

        @Scheduled(cron = "0 * * * * *")
        @OncePerSlot(ttl = "PT5X")
        public void run() {
        }
    }

    /** Durations without a unit. */
    static class BareNumbers {

        @Scheduled(cron = "0 * * * * *")
        @OncePerSlot(ttl = "30", maxHold = "${jobs.max-hold}")
        public void run() {
        }
    }

    /** A cron that does not parse. */
    static class BadCron {

        @Scheduled(cron = "0 0 25 * * *")
        @OncePerSlot
        public void run() {
        }
    }

    /** Valid declarations. */
    static class Fine {

        @Scheduled(cron = "0 0 * * * *", zone = "Europe/Berlin")
        @OncePerSlot(job = "hourly")
        public void hourly() {
        }

        @Scheduled(fixedRate = 5000)
        @OncePerSlot
        public void everyFiveSeconds() {
        }
    }
}
