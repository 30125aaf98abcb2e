package io.distlock.spring.aop;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.distlock.core.CurrentLease;
import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.OnLocked;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The aspect's beans: a user's advisor wins, and {@code @DistributedLock} works as a meta-annotation of the user's
 * own annotation.
 */
class DistributedLockAopConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class));

    @Test
    void aUserDefinedAdvisorWins() {
        DistributedLockAdvisor advisor = new DistributedLockAdvisor(new DistributedLockInterceptor(
                new LockedMethods(new org.springframework.beans.factory.support.DefaultListableBeanFactory(),
                        () -> LockedMethodDefaults.STANDARD), () -> {
                            throw new IllegalStateException("not used");
                        }, new AsynchronousRuns()));
        runner.withBean(DistributedLockAdvisor.class, () -> advisor)
            .run(context -> assertThat(context).getBean(DistributedLockAdvisor.class).isSameAs(advisor));
    }

    @Test
    void aComposedAnnotationGuardsTheMethodWithItsAttributes() {
        runner.withBean(NightlyJob.class).run(context -> {
            assertThat(context).hasNotFailed();
            NightlyJob job = context.getBean(NightlyJob.class);
            LockManager locks = context.getBean(LockManager.class);
            assertThat(job.run(locks)).isEqualTo("nightly held by me, others skipped");
            try (Lease holder = locks.tryAcquire("nightly", java.time.Duration.ofMinutes(1)).orElseThrow()) {
                assertThat(job.run(locks)).as("skipped while another owner holds the lock").isNull();
                assertThat(holder.isLost()).isFalse();
            }
        });
    }

    /** A user's own annotation carrying the lock declaration. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @DistributedLock(resource = "nightly", ttl = "PT10S", onLocked = OnLocked.SKIP)
    @interface NightlyLock {
    }

    /** A job guarded through the composed annotation. */
    static class NightlyJob {

        @NightlyLock
        public String run(LockManager locks) {
            Lease lease = CurrentLease.require();
            boolean othersSkipped = locks.tryAcquire("nightly", java.time.Duration.ofSeconds(1)).isEmpty();
            return lease.resource() + " held by me" + (othersSkipped ? ", others skipped" : "");
        }
    }
}
