package io.distlock.spring.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import com.jayway.jsonpath.JsonPath;
import io.distlock.core.LeaseWatchdog;
import io.distlock.core.LockManager;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.redis.RedisLockRepository;
import io.distlock.redis.testsupport.TestRedis;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.actuate.DistributedLockEndpointAutoConfiguration;
import io.distlock.spring.actuate.DistributedLockHealthAutoConfiguration;
import io.distlock.spring.actuate.DistributedLockHealthIndicator;
import io.distlock.spring.actuate.LocksEndpoint;
import io.distlock.spring.aop.DistributedLockAdvisor;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockDataSourceScriptDatabaseInitializer;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the Redis store is chosen or detected, and that the rest of the starter works on it: the manager, the
 * watchdog and the {@code @DistributedLock} aspect (a held lock skips the method), the {@code locks} endpoint and the
 * health indicator, all on the real Redis; and that the JDBC store stays the default beside a {@code DataSource}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DistributedLockRedisAutoConfigurationTests {

    private String prefix;

    private ApplicationContextRunner redisOnly;

    private ApplicationContextRunner redisAndDataSource;

    @BeforeAll
    void createRunners() {
        TestRedis.assumeAvailable();
        prefix = TestRedis.newPrefix();
        redisOnly = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
                    DistributedLockRedisAutoConfiguration.class, DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class,
                    DistributedLockEndpointAutoConfiguration.class, DistributedLockHealthAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.host=" + TestRedis.host(),
                    "spring.data.redis.port=" + TestRedis.port(), "spring.data.redis.timeout=5s",
                    "distributed-lock.redis.key-prefix=" + prefix, "spring.jmx.enabled=true",
                    "management.endpoints.jmx.exposure.include=locks");
        redisAndDataSource = redisOnly
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
            .withPropertyValues("spring.datasource.generate-unique-name=true");
    }

    @AfterAll
    void deleteKeys() {
        if (prefix != null) {
            TestRedis.deleteKeys(prefix);
        }
    }

    @Test
    void withRedisAndNoDataSourceTheRedisStoreIsPickedAndTheWholeStarterRunsOnIt() {
        redisOnly.run(context -> {
            assertThat(context).hasNotFailed()
                .hasSingleBean(RedisLockRepository.class)
                .doesNotHaveBean(JdbcLockRepository.class)
                .doesNotHaveBean(DistributedLockDataSourceScriptDatabaseInitializer.class)
                .hasSingleBean(LockManager.class)
                .hasSingleBean(LeaseWatchdog.class)
                .hasSingleBean(DistributedLockAdvisor.class)
                .hasSingleBean(LocksEndpoint.class);
            assertThat(context.getBean(LockManager.class).repository()).isSameAs(context.getBean(LockRepository.class));
            assertThat(context.getBean(RedisLockRepository.class).keys().prefix()).isEqualTo(prefix);
        });
    }

    @Test
    void storeRedisPicksRedisEvenBesideADataSourceAndLeavesTheDatabaseAlone() {
        redisAndDataSource.withPropertyValues("distributed-lock.store=redis").run(context -> {
            assertThat(context).hasNotFailed()
                .hasSingleBean(DataSource.class)
                .hasSingleBean(RedisLockRepository.class)
                .doesNotHaveBean(JdbcLockRepository.class)
                .doesNotHaveBean(DistributedLockDataSourceScriptDatabaseInitializer.class)
                .hasSingleBean(LockManager.class)
                .hasSingleBean(DistributedLockAdvisor.class);
            Integer tables = new JdbcTemplate(context.getBean(DataSource.class)).queryForObject(
                    "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE LOWER(TABLE_NAME) = 'distributed_locks'",
                    Integer.class);
            assertThat(tables).as("no lock table created").isZero();
        });
    }

    @Test
    void besideADataSourceTheJdbcStoreStaysTheDefault() {
        redisAndDataSource.run(context -> {
            assertThat(context).hasNotFailed()
                .hasSingleBean(RedisConnectionFactory.class)
                .hasSingleBean(JdbcLockRepository.class)
                .doesNotHaveBean(RedisLockRepository.class)
                .hasSingleBean(DistributedLockDataSourceScriptDatabaseInitializer.class)
                .hasSingleBean(LockManager.class);
            assertThat(context.getBean("distributedLockHealthIndicator"))
                .isInstanceOf(DistributedLockHealthIndicator.class);
        });
    }

    @Test
    void storeJdbcWithoutADataSourceFailsTheStartRatherThanLeaveGuardedMethodsUnguarded() {
        redisOnly.withConfiguration(AutoConfigurations.of(
                io.distlock.spring.store.DistributedLockStoreCheckAutoConfiguration.class))
            .withPropertyValues("distributed-lock.store=jdbc")
            .run(context -> assertThat(context).hasFailed().getFailure()
                .hasRootCauseMessage("distributed-lock.store=jdbc is set, but the application has no DataSource for "
                        + "the lock table: it would have no lock manager, and its guarded methods would run "
                        + "unguarded"));
    }

    @Test
    void storeRedisWithoutARedisConnectionFactoryFailsToStart() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    DistributedLockRedisAutoConfiguration.class, DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class))
            .withPropertyValues("distributed-lock.store=redis", "spring.datasource.generate-unique-name=true")
            .run(context -> assertThat(context).hasFailed().getFailure()
                .hasMessageContaining(RedisConnectionFactory.class.getName()));
    }

    @Test
    void withoutSpringDataRedisTheJdbcStoreWorksAsBefore() {
        redisAndDataSource.withClassLoader(new FilteredClassLoader("org.springframework.data.redis"))
            .run(context -> assertThat(context).hasNotFailed()
                .hasSingleBean(JdbcLockRepository.class)
                .hasSingleBean(LockManager.class)
                .doesNotHaveBean(DistributedLockStoreProperties.class));
    }

    @Test
    void withoutLockRedisTheRedisStoreIsNotDetected() {
        redisOnly.withClassLoader(new FilteredClassLoader(RedisLockRepository.class))
            .run(context -> assertThat(context).hasNotFailed()
                .doesNotHaveBean(LockRepository.class)
                .doesNotHaveBean(LockManager.class));
    }

    @Test
    void backsOffWhenDisabled() {
        redisOnly.withPropertyValues("distributed-lock.enabled=false")
            .run(context -> assertThat(context).hasNotFailed()
                .doesNotHaveBean(LockRepository.class)
                .doesNotHaveBean(LockManager.class));
    }

    @Test
    void aUserDefinedRepositoryWins() {
        redisOnly.withUserConfiguration(UserRepositoryConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(LockRepository.class).hasSingleBean(LockManager.class);
            assertThat(context.getBean(RedisLockRepository.class).keys().prefix()).isEqualTo("mine:");
        });
    }

    @Test
    void aHeldLockMakesTheAnnotatedMethodSkip() {
        redisOnly.withUserConfiguration(NightlyJobConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed();
            NightlyJob job = context.getBean(NightlyJob.class);
            RedisLockRepository repository = context.getBean(RedisLockRepository.class);
            String region = "eu-" + UUID.randomUUID();
            LockRecord other = repository.acquire("nightly:" + region, "another-replica", Duration.ofMinutes(1))
                .orElseThrow();
            assertThat(job.run(region)).as("held elsewhere: skipped").isNull();
            assertThat(job.runs()).isZero();
            repository.release(other.resource(), other.owner());
            assertThat(job.run(region)).as("ran under a token larger than the other replica's")
                .isGreaterThan(other.token());
            assertThat(job.runs()).isEqualTo(1);
            assertThat(repository.find("nightly:" + region)).as("released after the run").isEmpty();
        });
    }

    @Test
    void theLocksEndpointListsALockHeldInRedis() {
        redisOnly.run(context -> {
            assertThat(context).hasNotFailed();
            LockManager locks = context.getBean(LockManager.class);
            String resource = "report:" + UUID.randomUUID();
            try (var lease = locks.tryAcquire(resource, Duration.ofMinutes(1)).orElseThrow()) {
                LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
                assertThat(endpoint.locks().locks()).anySatisfy(lock -> {
                    assertThat(lock.resource()).isEqualTo(resource);
                    assertThat(lock.owner()).isEqualTo(lease.owner());
                    assertThat(lock.token()).isEqualTo(lease.token());
                });
                assertThat(endpoint.locks().held()).extracting(LocksEndpoint.LeaseDescriptor::resource)
                    .containsExactly(resource);
                assertThat(endpoint.lock(resource)).isNotNull();
                assertThat(endpoint.forceRelease(resource)).isNotNull();
                assertThat(endpoint.lock(resource)).isNull();
            }
        });
    }

    @Test
    void theHealthIndicatorPingsRedisThroughTheRepository() {
        redisOnly.run(context -> {
            assertThat(context).hasNotFailed();
            HealthIndicator indicator = context.getBean("distributedLockHealthIndicator", HealthIndicator.class);
            assertThat(indicator).isInstanceOf(RedisLockHealthIndicator.class);
            Health health = indicator.health(true);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("store", "redis").containsEntry("keyPrefix", prefix)
                .containsEntry("activeLeases", 0).containsEntry("lostLeases", 0L).containsKey("pingMillis")
                .containsEntry("role", "master").containsEntry("connectedReplicas", 0)
                .containsEntry("replicasToAcknowledge", 0).containsEntry("waitsForReplicas", false);
        });
    }

    @Test
    void replicasToAcknowledgeReachTheRepositoryAndTheHealthSaysAcquisitionsWaitForThem() {
        redisOnly.withPropertyValues("distributed-lock.redis.replicas-to-acknowledge=1",
                "distributed-lock.redis.acknowledgement-timeout=250ms").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(RedisLockRepository.class).replication())
                        .satisfies(replication -> {
                            assertThat(replication.replicasToAcknowledge()).isEqualTo(1);
                            assertThat(replication.acknowledgementTimeout()).isEqualTo(Duration.ofMillis(250));
                        });
                    Health health = context.getBean("distributedLockHealthIndicator", HealthIndicator.class)
                        .health(true);
                    assertThat(health.getDetails()).containsEntry("replicasToAcknowledge", 1)
                        .containsEntry("waitsForReplicas", true).containsEntry("connectedReplicas", 0);
                    assertThat(health.getDetails().get("replication").toString())
                        .contains("wait for 1 replica(s)");
                });
    }

    @Test
    void negativeReplicasToAcknowledgeFailTheStartNamingTheProperty() {
        redisOnly.withPropertyValues("distributed-lock.redis.replicas-to-acknowledge=-1").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                .hasMessageContaining("(distributed-lock.redis.replicas-to-acknowledge) must be 0 or more, got -1");
        });
    }

    @Test
    void acknowledgementTimeoutNotShorterThanTheRedisCommandTimeoutFailsTheStartNamingBoth() {
        redisOnly.withPropertyValues("distributed-lock.redis.replicas-to-acknowledge=1",
                "distributed-lock.redis.acknowledgement-timeout=5s").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                        .hasMessageContaining("distributed-lock.redis.acknowledgement-timeout (PT5S) must be shorter "
                                + "than the Redis command timeout spring.data.redis.timeout (PT5S)");
                });
    }

    @Test
    void theHealthIndicatorIsDownWhenRedisDoesNotAnswer() {
        LettuceConnectionFactory dead = TestRedis.connectionFactory("127.0.0.1", 1, server -> { },
                client -> client.commandTimeout(Duration.ofSeconds(2)));
        try {
            RedisLockRepository repository = RedisLockRepository.builder(dead).build();
            Health health = new RedisLockHealthIndicator(repository, new org.springframework.beans.factory.support
                    .StaticListableBeanFactory().getBeanProvider(LockManager.class)).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails().get("error").toString()).contains("Redis does not answer the lock store");
        }
        finally {
            dead.destroy();
        }
    }

    @Test
    void metadataDocumentsTheStoreProperties() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).isNotNull();
            String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            List<Map<String, Object>> properties = JsonPath.read(json, "$.properties[*]");
            assertThat(properties).filteredOn(p -> p.get("name").equals("distributed-lock.store")).singleElement()
                .satisfies(p -> assertThat((String) p.get("description")).startsWith("Where locks are kept"));
            assertThat(properties).filteredOn(p -> p.get("name").equals("distributed-lock.redis.key-prefix"))
                .singleElement().satisfies(p -> assertThat(p.get("defaultValue")).isEqualTo("distlock:"));
            assertThat(properties)
                .filteredOn(p -> p.get("name").equals("distributed-lock.redis.replicas-to-acknowledge"))
                .singleElement().satisfies(p -> assertThat(p.get("defaultValue")).isEqualTo(0));
            assertThat(properties)
                .filteredOn(p -> p.get("name").equals("distributed-lock.redis.acknowledgement-timeout"))
                .singleElement().satisfies(p -> assertThat(p.get("defaultValue")).isEqualTo("1s"));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserRepositoryConfiguration {

        @Bean
        RedisLockRepository myLockRepository(RedisConnectionFactory redisConnectionFactory) {
            return RedisLockRepository.builder(redisConnectionFactory).keyPrefix("mine:").build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NightlyJobConfiguration {

        @Bean
        NightlyJob nightlyJob() {
            return new NightlyJob();
        }
    }

    /** A guarded job: one run per region at a time across replicas. */
    static class NightlyJob {

        private final java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();

        @DistributedLock(resource = "nightly:#{#region}")
        public @Nullable Long run(String region) {
            runs.incrementAndGet();
            return io.distlock.core.CurrentLease.require().token();
        }

        public int runs() {
            return runs.get();
        }
    }
}
