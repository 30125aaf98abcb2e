package io.distlock.spring.autoconfigure;

import java.time.Duration;

import io.distlock.core.LeaseLostListener;
import io.distlock.core.LeaseWatchdog;
import io.distlock.core.LockArguments;
import io.distlock.core.LockManager;
import io.distlock.core.LockObserver;
import io.distlock.core.LockRepository;
import io.distlock.core.LockRequest;
import io.distlock.core.OwnerGenerator;
import io.distlock.core.RandomOwnerGenerator;
import io.distlock.core.WatchdogSettings;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of distributed locks on the application's lock store — the {@link LockRepository} that a store's
 * auto-configuration (JDBC, Redis) or the application defines: the owner generator, the lease watchdog, the lock
 * manager and the scheduled clean-up. Every bean backs off when the application defines its own. The annotations have
 * auto-configurations of their own.
 */
@AutoConfiguration
@ConditionalOnClass(LockManager.class)
@ConditionalOnBean(LockRepository.class)
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistributedLockProperties.class)
public final class DistributedLockAutoConfiguration {

    /**
     * Orders the lock manager after the database's initialisation (its lock table) when Spring Boot's SQL
     * initialisation is on the class path; a service on Redis alone, without spring-boot-starter-jdbc, has none.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = DatabaseInitializationOrder.CONFIGURER)
    @Import(DatabaseInitializationDependencyConfigurer.class)
    static class DatabaseInitializationOrder {

        static final String CONFIGURER = "org.springframework.boot.sql.init.dependency."
                + "DatabaseInitializationDependencyConfigurer";
    }

    @Bean
    @ConditionalOnMissingBean
    OwnerGenerator lockOwnerGenerator(DistributedLockProperties properties) {
        String prefix = properties.getOwnerPrefix();
        return prefix != null ? new RandomOwnerGenerator(prefix) : new RandomOwnerGenerator();
    }

    @Bean
    @ConditionalOnMissingBean
    LeaseWatchdog leaseWatchdog(LockRepository lockRepository, DistributedLockProperties properties) {
        DistributedLockProperties.Watchdog watchdog = properties.getWatchdog();
        return new LeaseWatchdog(lockRepository, new WatchdogSettings(watchdog.getThreads(), watchdog.getRenewRatio()));
    }

    @Bean
    @ConditionalOnMissingBean
    @DependsOnDatabaseInitialization
    LockManager lockManager(LockRepository lockRepository, OwnerGenerator lockOwnerGenerator,
            LeaseWatchdog leaseWatchdog, DistributedLockProperties properties,
            ObjectProvider<LeaseLostListener> lostListeners, ObjectProvider<LockObserver> observers,
            ObjectProvider<LockManagerBuilderCustomizer> customizers,
            ObjectProvider<ObservationRegistry> observationRegistry, ObjectProvider<LockStoreStartupFailure> failures) {
        LockManager.Builder builder = LockManager.builder(lockRepository)
            .ownerGenerator(lockOwnerGenerator)
            .watchdog(leaseWatchdog)
            .interruptOnLoss(properties.isInterruptOnLoss())
            .verifySchema(properties.getStartupCheck() != DistributedLockProperties.StartupCheck.LAZY);
        observationRegistry.ifAvailable(builder::observationRegistry);
        lostListeners.orderedStream().forEach(builder::lostListener);
        observers.orderedStream().forEach(builder::observer);
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        try {
            return builder.build();
        }
        catch (RuntimeException ex) {
            LockStoreStartupFailure explanation = failures.getIfUnique();
            throw explanation != null ? explanation.explain(ex) : ex;
        }
    }

    /**
     * The scheduled deletion of expired lock rows, unless {@code distributed-lock.cleanup.enabled=false}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "distributed-lock.cleanup.enabled", matchIfMissing = true)
    static class CleanupConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ExpiredLockCleanup expiredLockCleanup(LockManager lockManager, DistributedLockProperties properties,
                ObjectProvider<LockCleanupListener> listeners) {
            DistributedLockProperties.Cleanup cleanup = properties.getCleanup();
            Duration retention = LockArguments.requireDuration("distributed-lock.cleanup.retention",
                    cleanup.getRetention(), LockArguments.MIN_RETENTION, LockRequest.MAX_DURATION);
            Duration interval = LockArguments.requireDuration("distributed-lock.cleanup.interval",
                    cleanup.getInterval(), LockArguments.MIN_TTL, LockRequest.MAX_DURATION);
            return new ExpiredLockCleanup(lockManager, retention, interval, properties.getMaxTtl(),
                    listeners.orderedStream().toList());
        }
    }
}
