package io.distlock.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.annotation.Import;

/**
 * Turns on {@link DistributedLock} and {@link OncePerSlot} in a Spring application that does not use Spring Boot's
 * auto-configuration: put it on a {@code @Configuration} class of a context that has a single
 * {@link javax.sql.DataSource} bean holding the lock table.
 *
 * <pre>{@code
 * @Configuration
 * @EnableScheduling
 * @EnableDistributedLocks(tableName = "ops_locks", defaultTtl = "PT1M")
 * class LockConfig {
 *
 *     @Bean
 *     DataSource dataSource() { ... }
 * }
 * }</pre>
 *
 * <p>The context then gets the same aspects as with the starter's auto-configuration, each declaration checked when
 * the context is refreshed, and a {@link io.distlock.jdbc.JdbcLockRepository} and a
 * {@link io.distlock.core.LockManager} unless it defines its own. The lock table is not created: run the script for
 * the database from the lock-jdbc jar ({@code io/distlock/jdbc/dialect/schema-*.sql}); a missing table fails the
 * refresh. Durations take ISO-8601 ({@code PT30S}) or a number with a unit ({@code 30s}); attributes may be
 * {@code ${…}} placeholders. A Spring Boot application needs no annotation: the auto-configuration does all this from
 * the {@code distributed-lock.*} properties; with both, the context still has one set of beans.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Import(DistributedLocksImportSelector.class)
public @interface EnableDistributedLocks {

    /**
     * Name of the lock table, optionally schema-qualified; its token sequence is named after it with the suffix
     * {@code _token_seq}.
     *
     * @return the table's name
     */
    String tableName() default "distributed_locks";

    /**
     * Lease length of methods that set no {@code ttl}.
     *
     * @return a duration
     */
    String defaultTtl() default "PT30S";

    /**
     * Longest time the watchdog renews the lease of methods that set no {@code maxHold}.
     *
     * @return a duration
     */
    String maxHold() default "PT1H";

    /**
     * Longest lease accepted; longer TTLs are refused as a likely unit mistake.
     *
     * @return a duration
     */
    String maxTtl() default "P1D";

    /**
     * How the annotations reach the methods they guard, as {@code @EnableTransactionManagement(mode = …)} says it:
     * {@link AdviceMode#PROXY} through Spring AOP proxies, {@link AdviceMode#ASPECTJ} through the aspect of
     * {@code io.distlock:lock-aspectj} woven into the classes, which also guards calls a bean makes on itself and
     * private and final methods. {@code ASPECTJ} sets {@code distributed-lock.mode=aspectj} for the context.
     *
     * @return the mode
     */
    AdviceMode mode() default AdviceMode.PROXY;
}
