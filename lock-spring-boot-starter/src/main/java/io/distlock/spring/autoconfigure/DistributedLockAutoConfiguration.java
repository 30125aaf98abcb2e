package io.distlock.spring.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

import javax.sql.DataSource;

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
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockTableMissingException;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.jdbc.dialect.LockDialects;
import io.distlock.spring.DistributedLockDataSource;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Auto-configuration of distributed locks on the application's single {@link DataSource}: the lock repository,
 * owner generator, lease watchdog and lock manager, and the lock table's schema initialisation (the
 * {@code @DistributedLock} advisor is {@link io.distlock.spring.aop.DistributedLockAopAutoConfiguration}'s). Every bean backs off when the application defines
 * its own. It runs after the data source's auto-configuration, named as Spring Boot 4 and Spring Boot 3 call it: run
 * before it, the data source condition would find no data source and skip every lock bean without a word.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
        "org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration",
        "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
        "org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration",
        "org.springframework.boot.autoconfigure.transaction.TransactionAutoConfiguration" })
@ConditionalOnClass({ LockManager.class, JdbcLockRepository.class })
@Conditional(DistributedLockAutoConfiguration.OnLockStoreCondition.class)
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistributedLockProperties.class)
@Import(DatabaseInitializationDependencyConfigurer.class)
public final class DistributedLockAutoConfiguration {

    private static final String START_OR_LAZY = "Start the database, or set distributed-lock.startup-check=lazy "
            + "to start without it and check the lock table on first use";

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
            LeaseWatchdog leaseWatchdog, DistributedLockProperties properties, ObjectProvider<DataSource> dataSource,
            @DistributedLockDataSource ObjectProvider<DataSource> lockDataSourceQualified,
            ObjectProvider<LeaseLostListener> lostListeners, ObjectProvider<LockObserver> observers,
            ObjectProvider<LockManagerBuilderCustomizer> customizers,
            ObjectProvider<ObservationRegistry> observationRegistry) {
        boolean eager = !isLazy(properties);
        LockManager.Builder builder = LockManager.builder(lockRepository)
            .ownerGenerator(lockOwnerGenerator)
            .watchdog(leaseWatchdog)
            .interruptOnLoss(properties.isInterruptOnLoss())
            .verifySchema(eager);
        observationRegistry.ifAvailable(builder::observationRegistry);
        lostListeners.orderedStream().forEach(builder::lostListener);
        observers.orderedStream().forEach(builder::observer);
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        try {
            return builder.build();
        }
        catch (LockTableMissingException ex) {
            throw ex;
        }
        catch (RuntimeException ex) {
            DataSource lockDataSource = lockDataSourceQualified.getIfAvailable(dataSource::getIfUnique);
            if (lockDataSource == null) {
                throw ex;
            }
            LockDatabaseProbe probe = new LockDatabaseProbe(lockDataSource);
            if (probe.tryConnect() != null) {
                throw probe.unreachable("check the lock table", ex, START_OR_LAZY);
            }
            throw new IllegalStateException("Distributed locks could not check the lock table at start-up: "
                    + LockDatabaseProbe.describe(ex), ex);
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
                    cleanup.getRetention(), JdbcLockRepository.MIN_RETENTION, LockRequest.MAX_DURATION);
            Duration interval = LockArguments.requireDuration("distributed-lock.cleanup.interval",
                    cleanup.getInterval(), LockArguments.MIN_TTL, LockRequest.MAX_DURATION);
            return new ExpiredLockCleanup(lockManager, retention, interval, properties.getMaxTtl(),
                    listeners.orderedStream().toList());
        }
    }

    /**
     * The lock table of {@code distributed-lock.startup-check=eager} (the default): the database must answer at
     * start-up, or the start fails saying it could not be reached.
     */
    @Configuration(proxyBeanMethods = false)
    @Conditional({ EagerStartupCheckCondition.class, OnLockDataSourceCondition.class })
    @ConditionalOnProperty(name = "distributed-lock.store", havingValue = "jdbc", matchIfMissing = true)
    static class EagerRepositoryConfiguration {

        @Bean
        @ConditionalOnMissingBean(LockRepository.class)
        JdbcLockRepository lockRepository(ObjectProvider<DataSource> dataSources,
                @DistributedLockDataSource ObjectProvider<DataSource> lockDataSource,
                DistributedLockProperties properties, ObjectProvider<LockDialect> lockDialect,
                ObjectProvider<DistributedLockJdbcProperties> jdbcProperties) {
            DataSource dataSource = lockDataSource(dataSources, lockDataSource);
            LockDatabaseProbe probe = new LockDatabaseProbe(dataSource);
            Exception failure = probe.tryConnect();
            if (failure != null) {
                throw probe.unreachable("set up the lock repository", failure, START_OR_LAZY);
            }
            return jdbcLockRepository(dataSource, properties, configuredDialect(properties, lockDialect),
                    jdbcProperties);
        }
    }

    /**
     * The lock table of {@code distributed-lock.startup-check=lazy}: nothing at start-up needs the database, and the
     * table is checked on first use.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "distributed-lock.startup-check", havingValue = "lazy")
    @Conditional(OnLockDataSourceCondition.class)
    @ConditionalOnProperty(name = "distributed-lock.store", havingValue = "jdbc", matchIfMissing = true)
    static class LazyRepositoryConfiguration {

        @Bean
        @ConditionalOnMissingBean(LockRepository.class)
        LockRepository lockRepository(ObjectProvider<DataSource> dataSources,
                @DistributedLockDataSource ObjectProvider<DataSource> lockDataSource,
                DistributedLockProperties properties, ObjectProvider<LockDialect> lockDialect,
                ObjectProvider<DistributedLockJdbcProperties> jdbcProperties) {
            DataSource dataSource = lockDataSource(dataSources, lockDataSource);
            LockDatabaseProbe probe = new LockDatabaseProbe(dataSource);
            LockDialect dialect = configuredDialect(properties, lockDialect);
            if (dialect == null) {
                dialect = probe.dialectFromUrl();
            }
            if (dialect == null) {
                Exception failure = probe.tryConnect();
                if (failure != null) {
                    throw dialectRequired(probe, failure);
                }
            }
            return new SchemaCheckingLockRepository(jdbcLockRepository(dataSource, properties, dialect,
                    jdbcProperties));
        }
    }

    /** Matches unless {@code distributed-lock.startup-check=lazy}; a value that is neither fails when bound. */
    static class EagerStartupCheckCondition extends NoneNestedConditions {

        EagerStartupCheckCondition() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty(name = "distributed-lock.startup-check", havingValue = "lazy")
        static class Lazy {
        }
    }

    /**
     * The data source of the lock table: the one marked {@link DistributedLockDataSource}, else the application's
     * single (or primary) one.
     */
    private static DataSource lockDataSource(ObjectProvider<DataSource> dataSources,
            ObjectProvider<DataSource> lockDataSource) {
        return lockDataSource.getIfAvailable(dataSources::getObject);
    }

    /** Matches with a data source marked {@link DistributedLockDataSource}, or a single (or primary) one. */
    static final class OnLockDataSourceCondition extends AnyNestedCondition {

        OnLockDataSourceCondition() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnSingleCandidate(DataSource.class)
        static class SingleDataSource {
        }

        @ConditionalOnBean(annotation = DistributedLockDataSource.class)
        static class MarkedDataSource {
        }
    }

    private static boolean isLazy(DistributedLockProperties properties) {
        return properties.getStartupCheck() == DistributedLockProperties.StartupCheck.LAZY;
    }

    private static LockDatabaseUnreachableException dialectRequired(LockDatabaseProbe probe, Exception failure) {
        return probe.unreachable("detect the lock dialect", failure, "distributed-lock.dialect is required with "
                + "distributed-lock.startup-check=lazy when the JDBC URL does not name the database: set it to h2, "
                + "postgresql or mariadb");
    }

    private static JdbcLockRepository jdbcLockRepository(DataSource dataSource, DistributedLockProperties properties,
            @Nullable LockDialect dialect, ObjectProvider<DistributedLockJdbcProperties> jdbcProperties) {
        DistributedLockJdbcProperties jdbc = jdbcProperties.getIfAvailable(DistributedLockJdbcProperties::new);
        return JdbcLockRepository.builder(dataSource)
            .tableName(properties.getTableName())
            .dialect(dialect)
            .statementTimeout(jdbc.getStatementTimeout())
            .durableRelease(jdbc.isDurableRelease())
            .notifyWaiters(jdbc.isNotifyWaiters())
            .timeSource(properties.getTimeSource())
            .maxTtl(LockArguments.requireDuration("distributed-lock.max-ttl", properties.getMaxTtl(),
                    LockArguments.MIN_TTL, LockRequest.MAX_DURATION))
            .build();
    }

    /**
     * The application's own {@link LockDialect} bean, else {@code distributed-lock.dialect}, else none (detect): for
     * the lock table and the fencing table alike.
     *
     * @throws UnknownLockDialectException when the property names no dialect
     */
    static @Nullable LockDialect configuredDialect(DistributedLockProperties properties,
            ObjectProvider<LockDialect> lockDialect) {
        String dialect = properties.getDialect();
        return lockDialect.getIfAvailable(() -> dialect != null && !dialect.isBlank() ? dialectNamed(dialect) : null);
    }

    private static LockDialect dialectNamed(String dialect) {
        try {
            return LockDialects.byName(dialect);
        }
        catch (IllegalArgumentException ex) {
            throw new UnknownLockDialectException(dialect, ex);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(DataSourceScriptDatabaseInitializer.class)
    @Conditional(OnLockDataSourceCondition.class)
    @ConditionalOnProperty(name = "distributed-lock.store", havingValue = "jdbc", matchIfMissing = true)
    @EnableConfigurationProperties(DistributedLockJdbcProperties.class)
    static class DataSourceInitializationConfiguration {

        @Bean
        @ConditionalOnMissingBean
        @Conditional(OnDistributedLockDatasourceInitializationCondition.class)
        DistributedLockDataSourceScriptDatabaseInitializer distributedLockDataSourceScriptDatabaseInitializer(
                ObjectProvider<DataSource> dataSources,
                @DistributedLockDataSource ObjectProvider<DataSource> lockDataSource,
                DistributedLockJdbcProperties jdbcProperties, DistributedLockProperties properties,
                ObjectProvider<LockDialect> lockDialect) {
            DataSource dataSource = lockDataSource(dataSources, lockDataSource);
            return new DistributedLockDataSourceScriptDatabaseInitializer(dataSource,
                    withKnownPlatform(jdbcProperties, dataSource, properties, lockDialect), properties.getTableName());
        }

        /**
         * The initialisation settings with the script's platform filled in from the dialect or the JDBC URL when they
         * tell it, so that the initializer does not need a connection to pick the script: a database that cannot be
         * reached then fails the start with the lock table's own message, or not at all with a lazy start-up check.
         */
        private static DistributedLockJdbcProperties withKnownPlatform(DistributedLockJdbcProperties jdbcProperties,
                DataSource dataSource, DistributedLockProperties properties, ObjectProvider<LockDialect> lockDialect) {
            if (jdbcProperties.getPlatform() != null && !jdbcProperties.getPlatform().isBlank()) {
                return jdbcProperties;
            }
            LockDialect dialect = configuredDialect(properties, lockDialect);
            if (dialect == null) {
                dialect = new LockDatabaseProbe(dataSource).dialectFromUrl();
            }
            if (dialect == null) {
                LockDatabaseProbe probe = new LockDatabaseProbe(dataSource);
                Exception failure = probe.tryConnect();
                if (failure != null) {
                    throw isLazy(properties) ? dialectRequired(probe, failure)
                            : probe.unreachable("pick the lock table's schema script", failure, START_OR_LAZY);
                }
                return jdbcProperties;
            }
            DistributedLockJdbcProperties known = new DistributedLockJdbcProperties();
            known.setSchema(jdbcProperties.getSchema());
            known.setInitializeSchema(jdbcProperties.getInitializeSchema());
            known.setContinueOnError(jdbcProperties.isContinueOnError());
            known.setPlatform(dialect.platform());
            return known;
        }

        /**
         * Matches unless {@code distributed-lock.jdbc.initialize-schema=never}, as Spring Boot's own condition on an
         * initialisation mode does (whose package differs between Spring Boot generations); refuses a value that is no
         * mode by naming the property and the accepted values, rather than with a bare "No enum constant".
         */
        static class OnDistributedLockDatasourceInitializationCondition extends SpringBootCondition {

            private static final String PROPERTY = "distributed-lock.jdbc.initialize-schema";

            @Override
            public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
                ConditionMessage.Builder message = ConditionMessage.forCondition("Distributed lock database "
                        + "initialization");
                String mode = context.getEnvironment().getProperty(PROPERTY);
                if (mode == null || mode.isBlank()) {
                    return ConditionOutcome.match(message.because("default \"embedded\" mode"));
                }
                DatabaseInitializationMode known = Arrays.stream(DatabaseInitializationMode.values())
                    .filter(candidate -> candidate.name().equals(mode.toUpperCase(Locale.ENGLISH)))
                    .findFirst()
                    .orElseThrow(() -> new InvalidConfigurationPropertyValueException(PROPERTY, mode, "The lock "
                            + "table's initialisation mode is one of embedded (the default: on embedded databases "
                            + "only), always or never"));
                return known == DatabaseInitializationMode.NEVER
                        ? ConditionOutcome.noMatch(message.because(PROPERTY + " is never"))
                        : ConditionOutcome.match(message.because(PROPERTY + " is " + mode));
            }
        }
    }

    /**
     * A single {@link DataSource} for the JDBC store, or a {@link LockRepository} of another store, such as the Redis
     * one, defined before this configuration.
     */
    static final class OnLockStoreCondition extends AnyNestedCondition {

        OnLockStoreCondition() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @Conditional(OnLockDataSourceCondition.class)
        static class SingleDataSource {
        }

        @ConditionalOnBean(LockRepository.class)
        static class LockRepositoryBean {
        }
    }
}
