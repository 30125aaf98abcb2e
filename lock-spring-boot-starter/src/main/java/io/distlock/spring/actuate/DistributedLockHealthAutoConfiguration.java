package io.distlock.spring.actuate;

import io.distlock.core.LockManager;
import io.distlock.core.LockRepository;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.autoconfigure.SupportedSpringBoot;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code distributedLock} health indicator, when Spring Boot's health support is present.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass(name = SupportedSpringBoot.HEALTH_INDICATOR)
@ConditionalOnBean({ LockRepository.class, LockManager.class })
public final class DistributedLockHealthAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @Conditional(OnEnabledLockHealthIndicatorCondition.class)
    static class HealthIndicatorConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "distributedLockHealthIndicator")
        DistributedLockHealthIndicator distributedLockHealthIndicator(LockRepository lockRepository,
                LockManager lockManager) {
            return new DistributedLockHealthIndicator(lockRepository, lockManager);
        }
    }
}
