package io.distlock.spring.web;

import io.distlock.core.LockRepository;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * Serves the HTTP lock API when {@code distributed-lock.http.enabled=true} in a Spring MVC application.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBooleanProperty("distributed-lock.http.enabled")
@ConditionalOnBean(LockRepository.class)
@EnableConfigurationProperties(LockHttpProperties.class)
public final class DistributedLockHttpAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LockHttpController lockHttpController(LockRepository lockRepository, LockHttpProperties properties) {
        return new LockHttpController(lockRepository, properties);
    }

    @Bean
    @ConditionalOnMissingBean
    LockHttpExceptionHandler lockHttpExceptionHandler() {
        return new LockHttpExceptionHandler();
    }
}
