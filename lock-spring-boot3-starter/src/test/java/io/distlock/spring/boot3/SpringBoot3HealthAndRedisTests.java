package io.distlock.spring.boot3;

import java.time.Duration;
import java.util.UUID;

import io.distlock.core.LockManager;
import io.distlock.core.LockRecord;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockTableName;
import io.distlock.redis.RedisLockRepository;
import io.distlock.redis.testsupport.TestRedis;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.actuate.DistributedLockHealthAutoConfiguration;
import io.distlock.spring.actuate.DistributedLockHealthIndicator;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.spring.redis.DistributedLockRedisAutoConfiguration;
import io.distlock.spring.redis.RedisLockHealthIndicator;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What only Spring Boot 3 has its own classes for: the health indicators on Spring Boot 3's health types, the rule
 * that switches them off, and the Redis store on Spring Boot 3.5's Spring Data Redis.
 */
class SpringBoot3HealthAndRedisTests {

    private final ApplicationContextRunner jdbc = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class, DistributedLockHealthAutoConfiguration.class))
        .withPropertyValues("spring.datasource.generate-unique-name=true");

    @Test
    void tableHealthKeepsTheLeaseCountsWhenItGoesDown() {
        LockTableName table = TestDatabase.H2.createLockTable();
        JdbcLockRepository repository = JdbcLockRepository.builder(TestDatabase.H2.dataSource())
            .tableName(table.value())
            .build();
        try (LockManager manager = LockManager.builder(repository).build()) {
            HealthIndicator indicator = new DistributedLockHealthIndicator(repository, manager);
            assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
            TestDatabase.H2.dropLockTable(table);
            Health down = indicator.health();
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsEntry("activeLeases", 0).containsEntry("lostLeases", 0L)
                .containsKey("error");
        }
    }

    @Test
    void healthIndicatorFollowsItsOwnSwitchThenTheDefaultsSwitch() {
        jdbc.run(context -> assertThat(context).hasSingleBean(DistributedLockHealthIndicator.class));
        jdbc.withPropertyValues("management.health.defaults.enabled=false")
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DistributedLockHealthIndicator.class));
        jdbc.withPropertyValues("management.health.defaults.enabled=false",
                "management.health.distributedlock.enabled=true")
            .run(context -> assertThat(context).hasSingleBean(DistributedLockHealthIndicator.class));
    }

    @Test
    void redisStoreGuardsMethodsAndReportsItsHealth() {
        TestRedis.assumeAvailable();
        String prefix = TestRedis.newPrefix();
        try {
            new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedisAutoConfiguration.class,
                        DistributedLockRedisAutoConfiguration.class, DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class,
                        DistributedLockHealthAutoConfiguration.class))
                .withPropertyValues("spring.data.redis.host=" + TestRedis.host(),
                        "spring.data.redis.port=" + TestRedis.port(), "distributed-lock.redis.key-prefix=" + prefix)
                .withBean(ExportJob.class)
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(RedisLockRepository.class);
                    RedisLockRepository repository = context.getBean(RedisLockRepository.class);
                    ExportJob job = context.getBean(ExportJob.class);
                    String customer = "c-" + UUID.randomUUID();
                    assertThat(job.export(customer)).isEqualTo("exported " + customer);
                    LockRecord other = repository.acquire("export:" + customer, "another-replica",
                            Duration.ofMinutes(1)).orElseThrow();
                    assertThat(job.export(customer)).as("held elsewhere: skipped").isNull();
                    repository.release(other.resource(), other.owner());

                    Health health = context.getBean(RedisLockHealthIndicator.class).health();
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).containsEntry("store", "redis").containsEntry("keyPrefix", prefix);
                });
        }
        finally {
            TestRedis.deleteKeys(prefix);
        }
    }

    /** Exports one customer at a time across replicas. */
    static class ExportJob {

        @DistributedLock(resource = "export:#{#customer}")
        public String export(String customer) {
            return "exported " + customer;
        }
    }
}
