package io.distlock.spring.autoconfigure;


import javax.sql.DataSource;

import io.distlock.core.LeaseLostListener;
import io.distlock.core.LeaseWatchdog;
import io.distlock.core.LockManager;
import io.distlock.core.LockObserver;
import io.distlock.core.LockRepository;
import io.distlock.core.OwnerGenerator;
import io.distlock.core.RandomOwnerGenerator;
import io.distlock.core.WatchdogSettings;
import io.distlock.core.jdbc.JdbcLockRepository;
import io.distlock.core.jdbc.dialect.LockDialect;
import io.distlock.core.jdbc.dialect.LockDialects;
import io.distlock.spring.aop.DistributedLockAopConfiguration;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.sql.autoconfigure.init.OnDatabaseInitializationCondition;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of distributed locks on the application's single {@link DataSource}: the lock repository,
 * owner generator, lease watchdog and lock manager, the {@code @DistributedLock} advisor with the start-up check of
 * every declaration, and the lock table's schema initialisation. Every bean backs off when the application defines
 * its own.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
        "org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration" })
@ConditionalOnClass({ LockManager.class, JdbcLockRepository.class })
@ConditionalOnSingleCandidate(DataSource.class)
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistributedLockProperties.class)
@Import({ DatabaseInitializationDependencyConfigurer.class, DistributedLockAopConfiguration.class })
public final class DistributedLockAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(LockRepository.class)
    JdbcLockRepository lockRepository(DataSource dataSource, DistributedLockProperties properties,
            ObjectProvider<DistributedLockJdbcProperties> jdbcProperties, ObjectProvider<LockDialect> lockDialect) {
        String dialect = properties.getDialect();
        return JdbcLockRepository.builder(dataSource)
            .tableName(properties.getTableName())
            .dialect(lockDialect.getIfAvailable(
                    () -> dialect != null && !dialect.isBlank() ? LockDialects.byName(dialect) : null))
            .timeSource(properties.getTimeSource())
            .maxTtl(properties.getMaxTtl())
            .statementTimeout(jdbcProperties.getIfAvailable(DistributedLockJdbcProperties::new).getStatementTimeout())
            .build();
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
            LeaseWatchdog leaseWatchdog, DistributedLockProperties properties, ObjectProvider<LeaseLostListener> lostListeners,
            ObjectProvider<LockObserver> observers, ObjectProvider<LockManagerBuilderCustomizer> customizers) {
        LockManager.Builder builder = LockManager.builder(lockRepository)
            .ownerGenerator(lockOwnerGenerator)
            .watchdog(leaseWatchdog)
            .interruptOnLoss(properties.isInterruptOnLoss());
        lostListeners.orderedStream().forEach(builder::lostListener);
        observers.orderedStream().forEach(builder::observer);
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return builder.build();
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(DataSourceScriptDatabaseInitializer.class)
    @EnableConfigurationProperties(DistributedLockJdbcProperties.class)
    static class DataSourceInitializationConfiguration {

        @Bean
        @ConditionalOnMissingBean
        @Conditional(OnDistributedLockDatasourceInitializationCondition.class)
        DistributedLockDataSourceScriptDatabaseInitializer distributedLockDataSourceScriptDatabaseInitializer(
                DataSource dataSource, DistributedLockJdbcProperties jdbcProperties,
                DistributedLockProperties properties, ObjectProvider<LockDialect> lockDialect) {
            return new DistributedLockDataSourceScriptDatabaseInitializer(dataSource, jdbcProperties,
                    properties.getTableName(), lockDialect.getIfAvailable());
        }

        static class OnDistributedLockDatasourceInitializationCondition extends OnDatabaseInitializationCondition {

            OnDistributedLockDatasourceInitializationCondition() {
                super("Distributed lock", "distributed-lock.jdbc.initialize-schema");
            }
        }
    }
}
