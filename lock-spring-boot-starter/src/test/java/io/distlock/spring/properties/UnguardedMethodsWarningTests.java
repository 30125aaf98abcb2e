package io.distlock.spring.properties;

import java.util.List;

import io.distlock.core.LockManager;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.OncePerSlot;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.spring.slot.DistributedLockSlotAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code distributed-lock.enabled=false} starts without locks, and says at WARN which guarded methods now run
 * unguarded.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnguardedMethodsWarningTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class, DistributedLockSlotAutoConfiguration.class,
                DistributedLockPropertiesAutoConfiguration.class))
        .withBean(Jobs.class);

    @Test
    void disablingLocksWarnsNamingTheGuardedMethodsThatRunUnguarded(CapturedOutput output) {
        runner.withPropertyValues("distributed-lock.enabled=false").run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(LockManager.class);
            assertThat(context.getBean(Jobs.class).export()).isEqualTo("ran");
            assertThat(output).contains("WARN").contains("distributed-lock.enabled=false: 2 guarded methods run "
                    + "without a distributed lock, on every replica at once: " + Jobs.class.getName()
                    + ".export() (@DistributedLock), " + Jobs.class.getName() + ".hourly() (@OncePerSlot)");
        });
    }

    @Test
    void withoutGuardedMethodsTheWarningSaysNoneWasFound(CapturedOutput output) {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DistributedLockPropertiesAutoConfiguration.class))
            .withPropertyValues("distributed-lock.enabled=false")
            .run(context -> assertThat(output).contains("distributed-lock.enabled=false: distributed locks are off; "
                    + "no @DistributedLock or @OncePerSlot method was found among the beans"));
    }

    @Test
    void enabledLocksDoNotWarn(CapturedOutput output) {
        runner.withPropertyValues("distributed-lock.cleanup.enabled=false").run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(UnguardedMethodsWarning.class);
            assertThat(output).doesNotContain("distributed-lock.enabled=false");
        });
    }

    @Test
    void fiveMethodsAreAllNamed() {
        assertThat(UnguardedMethodsWarning.message(List.of("a", "b", "c", "d", "e")))
            .endsWith("5 guarded methods run without a distributed lock, on every replica at once: a, b, c, d, e");
    }

    @Test
    void longListsAreCut() {
        assertThat(UnguardedMethodsWarning.message(List.of("a", "b", "c", "d", "e", "f", "g")))
            .endsWith("7 guarded methods run without a distributed lock, on every replica at once: a, b, c, d, e "
                    + "and 2 more");
    }

    /** Guarded methods. */
    static class Jobs {

        @DistributedLock(resource = "export")
        public String export() {
            return "ran";
        }

        @Scheduled(cron = "0 0 * * * *")
        @OncePerSlot
        public void hourly() {
        }
    }
}
