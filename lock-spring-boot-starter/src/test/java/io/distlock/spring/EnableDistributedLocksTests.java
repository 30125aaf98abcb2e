package io.distlock.spring;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.distlock.core.CurrentLease;
import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockSchema;
import io.distlock.jdbc.LockTableMissingException;
import io.distlock.jdbc.LockTableName;
import io.distlock.jdbc.dialect.LockDialects;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.spring.support.InvalidLockDeclarationException;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link EnableDistributedLocks} in a plain {@link AnnotationConfigApplicationContext}, without Spring Boot's
 * auto-configuration, on embedded H2.
 */
class EnableDistributedLocksTests {

    private static final LockTableName TABLE = new LockTableName("plain_locks");

    @Test
    void aGuardedMethodTakesTheLockOfTheConfiguredTable() {
        try (AnnotationConfigApplicationContext context = context(PlainConfig.class, Jobs.class)) {
            Jobs jobs = context.getBean(Jobs.class);
            assertThat(AopUtils.isAopProxy(jobs)).isTrue();
            assertThat(jobs.export()).isEqualTo("ran");
            assertThat(jobs.lastLease()).isNotNull();
            assertThat(jobs.lastLease().resource()).isEqualTo("plain-export");
            assertThat(jobs.lastLease().ttl()).isEqualTo(Duration.ofSeconds(20));
            assertThat(new JdbcTemplate(context.getBean(DataSource.class)).queryForObject(
                    "SELECT COUNT(*) FROM plain_locks WHERE resource = 'plain-export'", Integer.class)).isOne();
            assertThat(context.getBeanNamesForType(DistributedLockAutoConfiguration.class)).isEmpty();
        }
    }

    @Test
    void aGuardedMethodSkipsWhileAnotherOwnerHoldsTheLock() {
        try (AnnotationConfigApplicationContext context = context(PlainConfig.class, Jobs.class)) {
            LockManager otherReplica = LockManager.builder(JdbcLockRepository.builder(context.getBean(
                    DataSource.class)).tableName(TABLE.value()).build()).build();
            try (Lease held = otherReplica.tryAcquire("plain-export", Duration.ofMinutes(1)).orElseThrow()) {
                Jobs jobs = context.getBean(Jobs.class);
                assertThat(jobs.export()).isNull();
                assertThat(jobs.runs()).isZero();
            }
            finally {
                otherReplica.close();
            }
        }
    }

    @Test
    void aOncePerSlotMethodCalledDirectlyRunsUnderItsJobsLockAndClaimsNoSlot() {
        try (AnnotationConfigApplicationContext context = context(PlainConfig.class, Jobs.class)) {
            Jobs jobs = context.getBean(Jobs.class);
            jobs.daily();
            jobs.daily();
            assertThat(jobs.slotRuns()).as("runs, each holding the job's lease").isEqualTo(2);
            assertThat(io.distlock.core.SlotStore.of(context.getBean(LockManager.class).repository())
                    .recentSlotRuns("plain-daily", 10)).as("slots claimed").isEmpty();
        }
    }

    @Test
    void anInvalidDeclarationFailsTheRefresh() {
        assertThatExceptionOfType(InvalidLockDeclarationException.class)
            .isThrownBy(() -> context(PlainConfig.class, UnitlessJob.class))
            .withMessage("@DistributedLock on " + UnitlessJob.class.getName() + ".run(): attribute 'ttl' = '30' has "
                    + "no unit: a number alone is not read as milliseconds; use ISO-8601 such as PT30S, or a number "
                    + "with a unit such as 30s or 500ms (ns, us, ms, s, m, h, d)");
    }

    @Test
    void anAttributeWithoutAUnitOrOutOfBoundsFailsTheRefreshNamingIt() {
        assertThat(refreshFailure(UnitlessAttributes.class)).isInstanceOf(InvalidLockDeclarationException.class)
            .hasMessage("@EnableDistributedLocks attribute 'defaultTtl' = '30' has no unit: a number alone is not read "
                    + "as milliseconds; use ISO-8601 such as PT30S, or a number with a unit such as 30s or 500ms (ns, "
                    + "us, ms, s, m, h, d)");
        assertThat(refreshFailure(TtlAboveMax.class)).isInstanceOf(InvalidLockDeclarationException.class)
            .hasMessage("@EnableDistributedLocks attribute 'defaultTtl' = 'PT2H' must be at most PT1H (maxTtl)");
    }

    @Test
    void anUnresolvablePlaceholderFailsTheRefreshAsADeclarationProblem() {
        assertThat(refreshFailure(UnresolvableAttributes.class)).isInstanceOf(InvalidLockDeclarationException.class)
            .hasMessageStartingWith("@EnableDistributedLocks attribute 'maxHold' = '${no.such.hold}' has a placeholder "
                    + "that cannot be resolved");
    }

    @Test
    void aMissingTableFailsTheRefreshNamingTheTable() {
        assertThat(refreshFailure(WithoutTable.class)).isInstanceOf(LockTableMissingException.class)
            .hasMessageContaining("Lock table 'missing_locks'");
    }

    @Test
    void theApplicationsOwnLockManagerWins() {
        try (AnnotationConfigApplicationContext context = context(OwnManagerConfig.class, Jobs.class)) {
            assertThat(context.getBeansOfType(LockManager.class)).containsOnlyKeys("myLockManager");
            assertThat(context.getBean(Jobs.class).export()).isEqualTo("ran");
            assertThat(context.getBean(Jobs.class).lastLease().resource()).isEqualTo("plain-export");
        }
    }

    @Test
    void withSpringBootsAutoConfigurationTooTheContextHasOneSetOfBeans() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class))
            .withUserConfiguration(PlainConfig.class, Jobs.class)
            .withPropertyValues("distributed-lock.table-name=plain_locks", "distributed-lock.cleanup.enabled=false")
            .run(context -> {
                assertThat(context).hasNotFailed().hasSingleBean(LockManager.class)
                    .hasSingleBean(io.distlock.spring.autoconfigure.DistributedLockProperties.class)
                    .hasSingleBean(io.distlock.spring.aop.DistributedLockAdvisor.class);
                assertThat(context.getBean(Jobs.class).export()).isEqualTo("ran");
            });
    }

    private static AnnotationConfigApplicationContext context(Class<?>... components) {
        return new AnnotationConfigApplicationContext(components);
    }

    /** The exception of ours that failed the refresh of a context with the configuration. */
    private static Throwable refreshFailure(Class<?> config) {
        try (AnnotationConfigApplicationContext context = context(config)) {
            throw new AssertionError("the refresh did not fail");
        }
        catch (BeanCreationException ex) {
            for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
                if (cause instanceof InvalidLockDeclarationException || cause instanceof LockTableMissingException) {
                    return cause;
                }
            }
            return ex;
        }
    }

    static DataSource lockDatabase() {
        DataSource dataSource = new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true)
            .build();
        String script = LockSchema.script(LockDialects.byName("h2"), TABLE);
        new ResourceDatabasePopulator(new ByteArrayResource(script.getBytes(StandardCharsets.UTF_8)))
            .execute(dataSource);
        return dataSource;
    }

    @Configuration(proxyBeanMethods = false)
    @EnableDistributedLocks(tableName = "plain_locks", defaultTtl = "20s")
    static class PlainConfig {

        @Bean
        DataSource dataSource() {
            return lockDatabase();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableDistributedLocks(tableName = "${locks.table:plain_locks}")
    static class OwnManagerConfig {

        @Bean
        DataSource dataSource() {
            return lockDatabase();
        }

        @Bean
        LockManager myLockManager(DataSource dataSource) {
            return LockManager.builder(JdbcLockRepository.builder(dataSource).tableName("plain_locks").build())
                .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableDistributedLocks(defaultTtl = "30")
    static class UnitlessAttributes {

        @Bean
        DataSource dataSource() {
            return lockDatabase();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableDistributedLocks(maxHold = "${no.such.hold}")
    static class UnresolvableAttributes {

        @Bean
        DataSource dataSource() {
            return lockDatabase();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableDistributedLocks(tableName = "plain_locks", defaultTtl = "PT2H", maxTtl = "PT1H")
    static class TtlAboveMax {

        @Bean
        DataSource dataSource() {
            return lockDatabase();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableDistributedLocks(tableName = "missing_locks")
    static class WithoutTable {

        @Bean
        DataSource dataSource() {
            return lockDatabase();
        }
    }

    /** Guarded methods; read through the proxy with its methods, as its fields are the target's. */
    static class Jobs {

        final AtomicInteger runs = new AtomicInteger();

        final AtomicInteger slotRuns = new AtomicInteger();

        volatile Lease lastLease;

        @DistributedLock(resource = "plain-export")
        public String export() {
            runs.incrementAndGet();
            lastLease = CurrentLease.require();
            return "ran";
        }

        @Scheduled(cron = "0 0 0 * * *")
        @OncePerSlot(job = "plain-daily")
        public void daily() {
            slotRuns.incrementAndGet();
            assertThat(CurrentLease.get()).isPresent();
        }

        public Lease lastLease() {
            return lastLease;
        }

        public int runs() {
            return runs.get();
        }

        public int slotRuns() {
            return slotRuns.get();
        }
    }

    /** A declaration without a unit. */
    static class UnitlessJob {

        @DistributedLock(resource = "unitless", ttl = "30")
        public void run() {
        }
    }
}
