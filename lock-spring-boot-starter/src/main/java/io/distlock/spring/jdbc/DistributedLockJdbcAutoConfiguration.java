package io.distlock.spring.jdbc;

import io.distlock.core.LockManager;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockProperties;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of the JDBC lock store on the application's single {@link javax.sql.DataSource} (or the one
 * marked {@link io.distlock.spring.DistributedLockDataSource}): the lock repository and the lock table's schema
 * initialisation; {@link DistributedLockAutoConfiguration} builds the lock manager on it. It runs after the data
 * source's auto-configuration, named as Spring Boot 4 and Spring Boot 3 call it: run before it, the data source
 * condition would find no data source and skip every lock bean without a word. It runs after the Redis store's
 * auto-configuration, whose repository it then backs off from. It backs off without Spring's JDBC or Spring Boot's
 * SQL initialisation on the class path (a service on Redis alone, without spring-boot-starter-jdbc).
 */
@AutoConfiguration(before = DistributedLockAutoConfiguration.class, afterName = {
        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
        "org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration",
        "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
        "org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration",
        "org.springframework.boot.autoconfigure.transaction.TransactionAutoConfiguration",
        "io.distlock.spring.redis.DistributedLockRedisAutoConfiguration" })
@ConditionalOnClass(value = { LockManager.class, JdbcLockRepository.class }, name = {
        DistributedLockJdbcAutoConfiguration.SPRING_JDBC, DistributedLockJdbcAutoConfiguration.BOOT_SQL_INIT })
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistributedLockProperties.class)
@Import(JdbcLockStoreConfiguration.class)
public final class DistributedLockJdbcAutoConfiguration {

    /** Spring's JDBC, which the JDBC store runs on: a service on Redis alone may leave it out. */
    static final String SPRING_JDBC = "org.springframework.jdbc.core.JdbcTemplate";

    /** Spring Boot's SQL initialisation (spring-boot-starter-jdbc), which initialises the lock table. */
    static final String BOOT_SQL_INIT = "org.springframework.boot.sql.init.DatabaseInitializationMode";
}
