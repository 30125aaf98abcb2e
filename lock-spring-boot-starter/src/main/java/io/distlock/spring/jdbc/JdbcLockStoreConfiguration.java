package io.distlock.spring.jdbc;

import java.util.Arrays;
import java.util.Locale;

import javax.sql.DataSource;

import io.distlock.core.LockArguments;
import io.distlock.core.LockRepository;
import io.distlock.core.LockRequest;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockTableMissingException;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.jdbc.dialect.LockDialects;
import io.distlock.spring.DistributedLockDataSource;
import io.distlock.spring.autoconfigure.DistributedLockProperties;
import io.distlock.spring.autoconfigure.LockStoreStartupFailure;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
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
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The JDBC store's beans, imported by {@link DistributedLockJdbcAutoConfiguration}: the lock repository on the lock
 * data source (checked at start-up, or on first use with {@code distributed-lock.startup-check=lazy}) and the lock
 * table's schema initialisation. One concept — the lock table of the application's data source — with its eager and
 * lazy variants and its initialisation, hence its length.
 */
@Configuration(proxyBeanMethods = false)
class JdbcLockStoreConfiguration {

    private static final String START_OR_LAZY = "Start the database, or set distributed-lock.startup-check=lazy "
            + "to start without it and check the lock table on first use";

    /**
     * Says, when the lock manager's check of the lock table fails, whether the lock data source could be reached at
     * all, naming it.
     */
    @Bean
    @ConditionalOnMissingBean
    @Conditional(OnLockDataSourceCondition.class)
    LockStoreStartupFailure jdbcLockStoreStartupFailure(ObjectProvider<DataSource> dataSources,
            @DistributedLockDataSource ObjectProvider<DataSource> lockDataSource) {
        return failure -> {
            if (failure instanceof LockTableMissingException) {
                return failure;
            }
            LockDatabaseProbe probe = new LockDatabaseProbe(lockDataSource(dataSources, lockDataSource));
            if (probe.tryConnect() != null) {
                return probe.unreachable("check the lock table", failure, START_OR_LAZY);
            }
            return new IllegalStateException("Distributed locks could not check the lock table at start-up: "
                    + LockDatabaseProbe.describe(failure), failure);
        };
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

    static boolean isLazy(DistributedLockProperties properties) {
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
            .replication(jdbc.getReplication())
            .requireSynchronousStandby(jdbc.isRequireSynchronousStandby())
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
            return jdbcProperties.with(jdbcProperties.getSchema(), dialect.platform());
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
}
