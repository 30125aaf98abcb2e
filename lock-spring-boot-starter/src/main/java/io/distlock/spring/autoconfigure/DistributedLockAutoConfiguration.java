package io.distlock.spring.autoconfigure;

import java.time.Duration;

import javax.sql.DataSource;

import io.distlock.core.LeaseLostListener;
import io.distlock.core.LeaseWatchdog;
import io.distlock.core.LockArguments;
import io.distlock.core.LockManager;
import io.distlock.core.LockObserver;
import io.distlock.core.LockRepository;
import io.distlock.core.OwnerGenerator;
import io.distlock.core.RandomOwnerGenerator;
import io.distlock.core.WatchdogSettings;
import io.distlock.core.jdbc.JdbcLockRepository;
import io.distlock.core.jdbc.dialect.LockDialect;
import io.distlock.core.jdbc.dialect.LockDialects;
import io.distlock.spring.aop.DistributedLockAdvisor;
import io.distlock.spring.aop.DistributedLockInterceptor;
import io.distlock.spring.aop.LockedMethodDefaults;
import io.distlock.spring.aop.LockedMethodValidator;
import io.distlock.spring.aop.LockedMethods;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.sql.autoconfigure.init.OnDatabaseInitializationCondition;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.util.function.SingletonSupplier;

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
@Import({ DatabaseInitializationDependencyConfigurer.class, DistributedLockAutoConfiguration.AutoProxyRegistrar.class })
public final class DistributedLockAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(LockRepository.class)
    JdbcLockRepository lockRepository(DataSource dataSource, DistributedLockProperties properties,
            ObjectProvider<LockDialect> lockDialect) {
        String dialect = properties.getDialect();
        return JdbcLockRepository.builder(dataSource)
            .tableName(properties.getTableName())
            .dialect(lockDialect.getIfAvailable(
                    () -> dialect != null && !dialect.isBlank() ? LockDialects.byName(dialect) : null))
            .timeSource(properties.getTimeSource())
            .maxTtl(properties.getMaxTtl())
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
            LeaseWatchdog leaseWatchdog, ObjectProvider<LeaseLostListener> lostListeners,
            ObjectProvider<LockObserver> observers, ObjectProvider<LockManagerBuilderCustomizer> customizers) {
        LockManager.Builder builder = LockManager.builder(lockRepository)
            .ownerGenerator(lockOwnerGenerator)
            .watchdog(leaseWatchdog);
        lostListeners.orderedStream().forEach(builder::lostListener);
        observers.orderedStream().forEach(builder::observer);
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return builder.build();
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static LockedMethods lockedMethods(BeanFactory beanFactory, ObjectProvider<DistributedLockProperties> properties) {
        return new LockedMethods(beanFactory, () -> lockedMethodDefaults(properties.getObject()));
    }

    private static LockedMethodDefaults lockedMethodDefaults(DistributedLockProperties properties) {
        Duration maxTtl = properties.getMaxTtl();
        LockArguments.requireDuration("distributed-lock.max-ttl", maxTtl, LockArguments.MIN_TTL, maxTtl);
        LockArguments.requireDuration("distributed-lock.default-ttl", properties.getDefaultTtl(), LockArguments.MIN_TTL,
                maxTtl);
        LockArguments.requireDuration("distributed-lock.max-hold", properties.getMaxHold(), LockArguments.MIN_TTL,
                Duration.ofDays(3650));
        return new LockedMethodDefaults(properties.getDefaultTtl(), properties.getMaxHold(), maxTtl);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static DistributedLockAdvisor distributedLockAdvisor(LockedMethods lockedMethods,
            ObjectProvider<LockManager> lockManager, ObjectProvider<DistributedLockProperties> properties,
            Environment environment) {
        SingletonSupplier<DistributedLockProperties> bound = SingletonSupplier.of(properties::getObject);
        DistributedLockAdvisor advisor = new DistributedLockAdvisor(new DistributedLockInterceptor(lockedMethods,
                SingletonSupplier.of(lockManager::getObject), () -> bound.obtain().isInterruptOnLoss()));
        // Bound from the environment: advisors are created before configuration properties beans can be.
        advisor.setOrder(Binder.get(environment).bind("distributed-lock.aop-order", Integer.class)
            .orElse(DistributedLockAdvisor.DEFAULT_ORDER));
        return advisor;
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static LockedMethodValidator lockedMethodValidator(ConfigurableListableBeanFactory beanFactory,
            LockedMethods lockedMethods) {
        return new LockedMethodValidator(beanFactory, lockedMethods);
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

    /**
     * Makes sure an auto-proxy creator exists, as {@code @EnableTransactionManagement} does, so that the advisor
     * applies even when {@code spring.aop.auto=false}; a more capable creator registered by Boot takes precedence.
     */
    static class AutoProxyRegistrar implements ImportBeanDefinitionRegistrar {

        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
        }
    }
}
