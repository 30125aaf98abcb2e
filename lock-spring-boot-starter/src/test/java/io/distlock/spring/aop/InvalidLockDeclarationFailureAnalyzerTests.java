package io.distlock.spring.aop;

import io.distlock.spring.OncePerSlot;
import io.distlock.spring.StartupFailures;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.spring.slot.DistributedLockSlotAutoConfiguration;
import io.distlock.spring.support.DurationText;
import io.distlock.spring.support.InvalidLockDeclarationException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failure analysis of wrong {@code @DistributedLock} and {@code @OncePerSlot} declarations lists each problem,
 * taken from the real failure of a context start.
 */
class InvalidLockDeclarationFailureAnalyzerTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class, DistributedLockSlotAutoConfiguration.class))
        .withPropertyValues("distributed-lock.cleanup.enabled=false");

    @Test
    void everyWrongDeclarationIsListed() {
        runner.withBean(LockedMethodValidatorTests.BadTtl.class)
            .withBean(LockedMethodValidatorTests.SkipReturningInt.class)
            .run(context -> {
                FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
                assertThat(analysis).isNotNull();
                assertThat(analysis.getCause()).isInstanceOf(InvalidLockDeclarationException.class);
                assertThat(analysis.getDescription()).startsWith("2 lock declarations are wrong:\n\n    - ")
                    .contains("\n    - @DistributedLock on " + LockedMethodValidatorTests.BadTtl.class.getName()
                            + ".run(String): attribute 'ttl' = 'PT5X' is not a duration")
                    .contains("\n    - @DistributedLock on "
                            + LockedMethodValidatorTests.SkipReturningInt.class.getName()
                            + ".count(): attribute 'onLocked' = 'SKIP' returns null for a skipped call");
                assertThat(analysis.getAction()).startsWith("Correct each attribute or method named above.")
                    .contains("a number with a unit (30s, 500ms)");
            });
    }

    @Test
    void aWrongSlotDeclarationIsExplainedToo() {
        runner.withBean(SlotWithoutUnit.class).run(context -> {
            FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).isEqualTo("A lock declaration is wrong:\n\n    - @OncePerSlot on "
                    + SlotWithoutUnit.class.getName() + ".run(): attribute 'ttl' = '30' has no unit: a number alone "
                    + "is not read as milliseconds; use " + DurationText.FORMS);
        });
    }

    /** A slot whose TTL has no unit. */
    static class SlotWithoutUnit {

        @Scheduled(cron = "0 * * * * *")
        @OncePerSlot(ttl = "30")
        public void run() {
        }
    }
}
