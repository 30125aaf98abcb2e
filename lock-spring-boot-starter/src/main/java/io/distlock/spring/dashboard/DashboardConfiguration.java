package io.distlock.spring.dashboard;

import java.time.Clock;
import java.util.List;

import io.distlock.core.LockRepository;
import io.distlock.core.OwnerGenerator;
import io.distlock.spring.slot.SlotJobs;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The dashboard's beans, imported by {@link DistributedLockDashboardAutoConfiguration}.
 */
@Configuration(proxyBeanMethods = false)
class DashboardConfiguration {

    /** The bean Spring Security's web configuration registers: its presence means Spring Security filters requests. */
    static final String SECURITY_FILTER_CHAIN = "springSecurityFilterChain";

    @Bean
    DashboardSettings dashboardSettings(DashboardProperties properties) {
        return DashboardSettings.of(properties);
    }

    @Bean
    DashboardEvents dashboardEvents(DashboardSettings settings) {
        return new DashboardEvents(settings.eventCapacity(), Clock.systemUTC());
    }

    @Bean
    LeaseRenewals dashboardLeaseRenewals() {
        return new LeaseRenewals();
    }

    @Bean
    DashboardAccess dashboardAccess(DashboardSettings settings, ConfigurableListableBeanFactory beanFactory) {
        return new DashboardAccess(settings, beanFactory.containsBean(SECURITY_FILTER_CHAIN));
    }

    @Bean
    LockSnapshots dashboardLockSnapshots(LockRepository lockRepository, DashboardSettings settings) {
        return new LockSnapshots(lockRepository, settings.snapshotMaxAge(), settings.storeTimeout(),
                Clock.systemUTC());
    }

    @Bean
    ForcedReleases dashboardForcedReleases(LockRepository lockRepository, DashboardEvents events,
            ObjectProvider<ForcedReleaseListener> listeners) {
        return new ForcedReleases(lockRepository, events, listeners.orderedStream().toList());
    }

    @Bean
    DashboardStates dashboardStates(LockSnapshots snapshots, DashboardSettings settings,
            ObjectProvider<SlotJobs> slotJobs, LeaseRenewals renewals, DashboardEvents events,
            ForcedReleases releases, ObjectProvider<OwnerGenerator> ownerGenerator) {
        return new DashboardStates(snapshots, new LockRows(settings.expiringWithin(), settings.longHeldAfter()),
                new SlotStrips(), () -> {
                    SlotJobs jobs = slotJobs.getIfAvailable();
                    return jobs != null ? jobs.declared() : List.of();
                },
                renewals, events, releases, instance(ownerGenerator), settings, Clock.systemUTC());
    }

    @Bean
    DashboardController dashboardController(DashboardStates states, DashboardAccess access, ForcedReleases releases,
            DashboardSettings settings) {
        return new DashboardController(states, access, releases, new DashboardPage(), settings);
    }

    @Bean
    DashboardExceptionHandler dashboardExceptionHandler() {
        return new DashboardExceptionHandler();
    }

    @Bean
    DashboardStartupLog dashboardStartupLog(DashboardSettings settings, DashboardAccess access,
            DashboardEvents events) {
        return new DashboardStartupLog(settings, access, events);
    }

    /** This instance's name: the readable prefix of the owner tokens it makes. */
    private static String instance(ObjectProvider<OwnerGenerator> ownerGenerator) {
        OwnerGenerator generator = ownerGenerator.getIfAvailable();
        return generator != null ? Owners.instance(generator.nextOwner()) : "";
    }

    /**
     * Counts forced releases in Micrometer as {@code distributed.lock.dashboard.releases}, when a meter registry
     * exists.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    static class MetricsConfiguration {

        @Bean
        ForcedReleaseCounter dashboardForcedReleaseCounter(ObjectProvider<MeterRegistry> meterRegistry) {
            return new ForcedReleaseCounter(meterRegistry);
        }
    }
}
