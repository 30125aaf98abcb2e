package io.distlock.spring.web;

import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.web.servlet.DispatcherServlet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP lock API is served only when asked for, in a Spring MVC application.
 */
class LockHttpAutoConfigurationTests {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class, DistributedLockHttpAutoConfiguration.class))
        .withPropertyValues("spring.datasource.url=jdbc:h2:mem:http-autoconfig");

    @Test
    void servesTheApiWhenEnabledAndBindsItsProperties() {
        runner.withPropertyValues("distributed-lock.http.enabled=true", "distributed-lock.http.base-path=/api/locks",
                "distributed-lock.http.max-ttl=PT10M")
            .run(context -> {
                assertThat(context).hasNotFailed().hasSingleBean(LockHttpController.class)
                    .hasSingleBean(LockHttpExceptionHandler.class);
                LockHttpProperties properties = context.getBean(LockHttpProperties.class);
                assertThat(properties.getBasePath()).isEqualTo("/api/locks");
                assertThat(properties.getMaxTtl()).hasMinutes(10);
            });
    }

    @Test
    void offByDefault() {
        runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LockHttpController.class));
    }

    @Test
    void backsOffWithoutSpringMvcOrOutsideAWebApplication() {
        runner.withPropertyValues("distributed-lock.http.enabled=true")
            .withClassLoader(new FilteredClassLoader(DispatcherServlet.class))
            .run(context -> assertThat(context).doesNotHaveBean(LockHttpController.class));
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class, DistributedLockHttpAutoConfiguration.class))
            .withPropertyValues("spring.datasource.url=jdbc:h2:mem:http-autoconfig-2",
                    "distributed-lock.http.enabled=true")
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LockHttpController.class));
    }
}
