package io.distlock.spring.metrics;

import io.distlock.core.LockManager;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.autoconfigure.LockCleanupListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Records lock traffic in Micrometer when a {@link MeterRegistry} exists: the {@link LockMetrics} observer joins the
 * lock manager, a gauge counts the leases this process holds, and a counter the expired lock rows the scheduled
 * clean-up deleted.
 */
@AutoConfiguration(before = DistributedLockAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
public final class DistributedLockMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LockMetrics lockMetrics(MeterRegistry meterRegistry) {
        return new LockMetrics(meterRegistry);
    }

    @Bean
    @ConditionalOnBooleanProperty(name = "distributed-lock.cleanup.enabled", matchIfMissing = true)
    LockCleanupListener distributedLockCleanupMetrics(MeterRegistry meterRegistry) {
        return LockMetrics.cleanupCounter(meterRegistry);
    }

    @Bean
    MeterBinder distributedLockActiveLeasesMeterBinder(ObjectProvider<LockManager> lockManager) {
        return registry -> lockManager.ifAvailable(manager -> LockMetrics.activeLeases(manager).bindTo(registry));
    }
}
