package io.distlock.spring.store;

import javax.sql.DataSource;

import io.distlock.core.LockManager;
import io.distlock.core.LockRepository;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.redis.RedisLockRepository;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.OncePerSlot;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.spring.redis.DistributedLockRedisAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A store chosen with {@code distributed-lock.store} that cannot be set up fails the start, naming the property and
 * what to add, on every class path that lacks it: without it the application would have no lock manager, and its
 * guarded methods would run unguarded.
 */
class DistributedLockStoreCheckAutoConfigurationTests {

    private final ApplicationContextRunner withoutDataSource = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DistributedLockRedisAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class,
                DistributedLockAopAutoConfiguration.class, DistributedLockStoreCheckAutoConfiguration.class));

    private final ApplicationContextRunner withDataSource = withoutDataSource
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
        .withPropertyValues("spring.datasource.generate-unique-name=true",
                "distributed-lock.jdbc.initialize-schema=always");

    @Test
    void storeRedisWithoutLockRedisFailsTheStartNamingThePropertyAndTheModuleToAdd() {
        withDataSource.withClassLoader(new FilteredClassLoader(RedisLockRepository.class))
            .withPropertyValues("distributed-lock.store=redis")
            .run(context -> {
                assertThat(context).hasFailed();
                FailureAnalysis analysis = analysis(context.getStartupFailure());
                assertThat(analysis.getDescription()).contains("distributed-lock.store=redis")
                    .contains("lock-redis (io.distlock:lock-redis)").doesNotContain("Spring Data Redis")
                    .contains("guarded methods would run unguarded");
                assertThat(analysis.getAction()).contains("Add lock-redis (io.distlock:lock-redis)");
            });
    }

    @Test
    void storeRedisWithoutSpringDataRedisFailsTheStartNamingSpringDataRedis() {
        withDataSource.withClassLoader(new FilteredClassLoader("org.springframework.data.redis"))
            .withPropertyValues("distributed-lock.store=redis")
            .run(context -> assertThat(analysis(context.getStartupFailure()).getDescription())
                .contains("distributed-lock.store=redis")
                .contains("Spring Data Redis (org.springframework.boot:spring-boot-starter-data-redis)"));
    }

    @Test
    void storeJdbcWithoutADataSourceFailsTheStartSayingToConfigureOne() {
        withoutDataSource.withPropertyValues("distributed-lock.store=jdbc")
            .run(context -> {
                FailureAnalysis analysis = analysis(context.getStartupFailure());
                assertThat(analysis.getDescription()).contains("distributed-lock.store=jdbc")
                    .contains("no DataSource");
                assertThat(analysis.getAction()).contains("spring.datasource.url");
            });
    }

    @Test
    void storeJdbcWithTwoDataSourcesAndNoneMarkedFailsTheStartSayingToMarkOne() {
        withoutDataSource.withUserConfiguration(TwoDataSources.class)
            .withPropertyValues("distributed-lock.store=jdbc")
            .run(context -> {
                FailureAnalysis analysis = analysis(context.getStartupFailure());
                assertThat(analysis.getDescription()).contains("2 DataSources").contains("first", "second");
                assertThat(analysis.getAction()).contains("@DistributedLockDataSource");
            });
    }

    @Test
    void storeJdbcWithoutLockJdbcFailsTheStartNamingLockJdbc() {
        withDataSource.withClassLoader(new FilteredClassLoader(JdbcLockRepository.class))
            .withPropertyValues("distributed-lock.store=jdbc")
            .run(context -> assertThat(analysis(context.getStartupFailure()).getDescription())
                .contains("distributed-lock.store=jdbc").contains("lock-jdbc (io.distlock:lock-jdbc)"));
    }

    @Test
    void aStoreValueThatNamesNoStoreFailsTheStartAsItsBindingDoes() {
        withDataSource.withClassLoader(new FilteredClassLoader(RedisLockRepository.class))
            .withPropertyValues("distributed-lock.store=mongo")
            .run(context -> {
                assertThat(context).hasFailed();
                Throwable failure = context.getStartupFailure();
                assertThat(NestedExceptionUtils.getMostSpecificCause(failure)).isNotNull();
                BindException bind = find(failure, BindException.class);
                assertThat(bind).as("a binding failure").isNotNull();
                assertThat(bind.getName()).hasToString("distributed-lock.store");
            });
    }

    @Test
    void aChosenStoreThatIsThereStartsAsBefore() {
        withDataSource.withPropertyValues("distributed-lock.store=jdbc")
            .run(context -> assertThat(context).hasNotFailed().hasSingleBean(LockManager.class)
                .doesNotHaveBean(ChosenStoreCheck.class));
    }

    @Test
    void aLockRepositoryOfTheApplicationsOwnStandsForAMissingStore() {
        withDataSource.withClassLoader(new FilteredClassLoader(RedisLockRepository.class))
            .withUserConfiguration(OwnRepository.class)
            .withPropertyValues("distributed-lock.store=redis", "distributed-lock.startup-check=lazy")
            .run(context -> assertThat(context).hasNotFailed().hasSingleBean(LockRepository.class)
                .hasSingleBean(LockManager.class));
    }

    @Test
    void nothingIsCheckedWhenLocksAreDisabled() {
        withoutDataSource.withClassLoader(new FilteredClassLoader(RedisLockRepository.class))
            .withPropertyValues("distributed-lock.store=redis", "distributed-lock.enabled=false")
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LockManager.class));
    }

    @Test
    void aStoreDetectedRatherThanChosenIsLeftAsItIs() {
        withoutDataSource.withClassLoader(new FilteredClassLoader(RedisLockRepository.class))
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LockManager.class));
    }

    @Test
    void guardedMethodsWithNoStoreModuleOnTheClassPathFailTheStartNamingThemAndWhatToAdd() {
        withoutDataSource.withClassLoader(new FilteredClassLoader(RedisLockRepository.class, JdbcLockRepository.class))
            .withBean(Jobs.class)
            .run(context -> {
                assertThat(context).hasFailed();
                FailureAnalysis analysis = analysis(context.getStartupFailure());
                assertThat(analysis.getDescription()).startsWith("2 guarded methods but no lock store: neither "
                        + "lock-jdbc nor lock-redis is on the class path. There is no lock manager, and they would "
                        + "run unguarded, on every replica at once: " + Jobs.class.getName()
                        + ".export() (@DistributedLock), " + Jobs.class.getName() + ".hourly() (@OncePerSlot)");
                assertThat(analysis.getAction()).contains("io.distlock:lock-jdbc").contains("io.distlock:lock-redis")
                    .contains("distributed-lock.enabled=false");
            });
    }

    @Test
    void aGuardedMethodWithLockJdbcButNoDataSourceFailsTheStartSayingSo() {
        withoutDataSource.withClassLoader(new FilteredClassLoader(RedisLockRepository.class))
            .withBean(Jobs.class)
            .run(context -> {
                FailureAnalysis analysis = analysis(context.getStartupFailure());
                assertThat(analysis.getDescription())
                    .contains("lock-jdbc is on the class path, but the application has no DataSource");
                assertThat(analysis.getAction()).as("asks only for what is missing")
                    .startsWith("Configure the lock table's DataSource: spring.datasource.url and the database's "
                            + "driver. To run the methods without locks on purpose")
                    .doesNotContain("io.distlock:lock-jdbc").doesNotContain("lock-redis");
            });
    }

    @Test
    void aGuardedMethodWithLockRedisButNoRedisConnectionFactoryFailsTheStartSayingSo() {
        withoutDataSource.withClassLoader(new FilteredClassLoader(JdbcLockRepository.class))
            .withBean(Jobs.class)
            .run(context -> {
                FailureAnalysis analysis = analysis(context.getStartupFailure());
                assertThat(analysis.getDescription()).contains("lock-redis is on the class path, but the application "
                        + "has no RedisConnectionFactory").doesNotContain("lock-jdbc");
                assertThat(analysis.getAction())
                    .startsWith("Configure Redis: spring-boot-starter-data-redis and spring.data.redis.*");
            });
    }

    @Test
    void guardedMethodsWithTwoDataSourcesNoneMarkedFailTheStartSayingToMarkOne() {
        withoutDataSource.withClassLoader(new FilteredClassLoader(RedisLockRepository.class))
            .withUserConfiguration(TwoDataSources.class).withBean(Jobs.class)
            .run(context -> assertThat(analysis(context.getStartupFailure()).getDescription())
                .contains("none of the 2 DataSources is primary or marked @DistributedLockDataSource"));
    }

    @Test
    void guardedMethodsWithLocksDisabledStartUnguardedAsAsked() {
        withoutDataSource.withClassLoader(new FilteredClassLoader(RedisLockRepository.class, JdbcLockRepository.class))
            .withBean(Jobs.class).withPropertyValues("distributed-lock.enabled=false")
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(NoLockStoreCheck.class));
    }

    @Test
    void guardedMethodsWithAStoreStartAsBefore() {
        withDataSource.withBean(Jobs.class)
            .run(context -> assertThat(context).hasNotFailed().hasSingleBean(LockManager.class));
    }

    @Test
    void guardedMethodsWithALockManagerOfTheApplicationsOwnStart() {
        DataSource own = new DriverManagerDataSource(
                "jdbc:h2:mem:own;INIT=RUNSCRIPT FROM 'classpath:io/distlock/jdbc/dialect/schema-h2.sql'");
        withoutDataSource.withBean(Jobs.class)
            .withBean(LockManager.class, () -> LockManager.builder(JdbcLockRepository.builder(own).build()).build())
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LockRepository.class));
    }

    private static FailureAnalysis analysis(Throwable failure) {
        LockStoreMissingException missing = find(failure, LockStoreMissingException.class);
        assertThat(missing).as("the start fails for the missing store: %s", failure).isNotNull();
        return new LockStoreMissingFailureAnalyzer().analyze(failure);
    }

    private static <T extends Throwable> T find(Throwable failure, Class<T> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
        }
        return null;
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoDataSources {

        @Bean
        DataSource first() {
            return new DriverManagerDataSource("jdbc:h2:mem:first");
        }

        @Bean
        DataSource second() {
            return new DriverManagerDataSource("jdbc:h2:mem:second");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnRepository {

        @Bean
        LockRepository lockRepository(DataSource dataSource) {
            return JdbcLockRepository.builder(dataSource).build();
        }
    }

    /** Guarded methods. */
    static class Jobs {

        @DistributedLock(resource = "export")
        public String export() {
            return "ran";
        }

        @Scheduled(cron = "0 0 * * * *")
        @OncePerSlot
        public void hourly() {
        }
    }
}
