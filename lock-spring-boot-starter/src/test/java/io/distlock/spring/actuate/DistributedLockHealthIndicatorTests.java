package io.distlock.spring.actuate;

import io.distlock.core.LockManager;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockTableName;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The health indicator's answers on a real table, and the Actuator pieces' back-off.
 */
class DistributedLockHealthIndicatorTests {

    @Test
    void healthIsUpOnAnExistingTableAndDownWithTheErrorWhenItIsGone() {
        LockTableName table = TestDatabase.H2.createLockTable();
        JdbcLockRepository repository = JdbcLockRepository.builder(TestDatabase.H2.dataSource())
                .tableName(table.value()).build();
        try (LockManager manager = LockManager.builder(repository).build()) {
            DistributedLockHealthIndicator indicator = new DistributedLockHealthIndicator(repository, manager);
            assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
            TestDatabase.H2.dropLockTable(table);
            Health down = indicator.health();
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails().get("error").toString()).contains(table.value());
        }
    }

    @Test
    void actuatorPiecesBackOffWithoutActuatorOrHealthSupport() {
        ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class, DistributedLockEndpointAutoConfiguration.class,
                    DistributedLockHealthAutoConfiguration.class))
            .withPropertyValues("spring.datasource.url=jdbc:h2:mem:actuate-backoff",
                    "management.endpoints.jmx.exposure.include=locks", "spring.jmx.enabled=true");
        runner.run(context -> assertThat(context).hasNotFailed().hasSingleBean(DistributedLockHealthIndicator.class));
        runner.withClassLoader(new FilteredClassLoader(Endpoint.class))
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LocksEndpoint.class));
        runner.withClassLoader(new FilteredClassLoader("org.springframework.boot.health"))
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DistributedLockHealthIndicator.class));
        runner.withPropertyValues("management.health.distributedlock.enabled=false")
            .run(context -> assertThat(context).doesNotHaveBean(DistributedLockHealthIndicator.class));
    }
}
