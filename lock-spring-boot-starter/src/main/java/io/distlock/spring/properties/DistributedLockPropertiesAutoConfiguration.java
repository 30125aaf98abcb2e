package io.distlock.spring.properties;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Start-up checks of the {@code distributed-lock.*} configuration, whichever lock store is configured: keys that no
 * properties class binds and durations without a unit fail the start before any bean is created (and durations
 * without a unit fail the binding too, whatever metadata is on the class path); with
 * {@code distributed-lock.enabled=false}, a warning names the guarded methods that run without their locks.
 */
@AutoConfiguration
public final class DistributedLockPropertiesAutoConfiguration {

    @Bean
    static LockPropertiesValidator lockPropertiesValidator(Environment environment) {
        return new LockPropertiesValidator(environment);
    }

    @Bean
    static UnitlessDurationBindHandlerAdvisor unitlessDurationBindHandlerAdvisor(Environment environment) {
        return new UnitlessDurationBindHandlerAdvisor(environment);
    }

    /**
     * The warning that {@code distributed-lock.enabled=false} leaves guarded methods unguarded.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "distributed-lock.enabled", havingValue = false)
    static class DisabledConfiguration {

        @Bean
        static UnguardedMethodsWarning unguardedMethodsWarning(ConfigurableListableBeanFactory beanFactory) {
            return new UnguardedMethodsWarning(beanFactory);
        }
    }
}
