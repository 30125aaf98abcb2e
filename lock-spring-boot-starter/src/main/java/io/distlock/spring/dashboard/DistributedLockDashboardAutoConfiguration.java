package io.distlock.spring.dashboard;

import io.distlock.core.LockRepository;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Import;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * Serves the lock dashboard when {@code distributed-lock.dashboard.enabled=true} in a Spring MVC application with a
 * lock store: a page at {@code distributed-lock.dashboard.path}, read-only unless its admin mode is on.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class,
        afterName = "io.distlock.spring.redis.DistributedLockRedisAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBooleanProperty("distributed-lock.dashboard.enabled")
@ConditionalOnBean(LockRepository.class)
@EnableConfigurationProperties(DashboardProperties.class)
@Import(DashboardConfiguration.class)
public final class DistributedLockDashboardAutoConfiguration {
}
