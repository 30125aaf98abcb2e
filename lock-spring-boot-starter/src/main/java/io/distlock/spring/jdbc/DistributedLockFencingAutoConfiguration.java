package io.distlock.spring.jdbc;

import javax.sql.DataSource;

import io.distlock.jdbc.FencingGuard;
import io.distlock.jdbc.FencingListener;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockProperties;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of fenced writes, with {@code distributed-lock.fencing.enabled=true}: a {@link FencingGuard} on
 * the application's single (or primary) {@link DataSource} — the one the protected writes go to, which may differ from
 * the lock table's — and its table, created from lock-jdbc's script under the lock table's initialisation mode.
 */
@AutoConfiguration(after = { DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class })
@ConditionalOnClass(value = FencingGuard.class, name = { DistributedLockJdbcAutoConfiguration.SPRING_JDBC,
        DistributedLockJdbcAutoConfiguration.BOOT_SQL_INIT })
@ConditionalOnBooleanProperty("distributed-lock.fencing.enabled")
@ConditionalOnSingleCandidate(DataSource.class)
@EnableConfigurationProperties({ DistributedLockFencingProperties.class, DistributedLockJdbcProperties.class,
        DistributedLockProperties.class })
@Import(DatabaseInitializationDependencyConfigurer.class)
public final class DistributedLockFencingAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @DependsOnDatabaseInitialization
    FencingGuard fencingGuard(DataSource dataSource, DistributedLockFencingProperties fencing,
            DistributedLockProperties properties, ObjectProvider<LockDialect> lockDialect,
            ObjectProvider<FencingListener> listeners) {
        FencingGuard.Builder builder = FencingGuard.builder(dataSource).tableName(fencing.getTableName())
                .dialect(JdbcLockStoreConfiguration.configuredDialect(properties, lockDialect));
        listeners.orderedStream().forEach(builder::listener);
        FencingGuard guard = builder.build();
        if (properties.getStartupCheck() != DistributedLockProperties.StartupCheck.LAZY) {
            guard.verifySchema();
        }
        return guard;
    }

    @Bean
    @ConditionalOnMissingBean
    FencingTableScriptDatabaseInitializer fencingTableScriptDatabaseInitializer(DataSource dataSource,
            DistributedLockFencingProperties fencing, DistributedLockJdbcProperties jdbc,
            DistributedLockProperties properties, ObjectProvider<LockDialect> lockDialect) {
        return new FencingTableScriptDatabaseInitializer(dataSource, jdbc, fencing.getTableName(),
                JdbcLockStoreConfiguration.configuredDialect(properties, lockDialect));
    }
}
