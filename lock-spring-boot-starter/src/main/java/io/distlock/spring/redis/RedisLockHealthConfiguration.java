package io.distlock.spring.redis;

import io.distlock.core.LockManager;
import io.distlock.redis.RedisLockRepository;
import io.distlock.spring.actuate.OnEnabledLockHealthIndicatorCondition;
import io.distlock.spring.autoconfigure.SupportedSpringBoot;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code distributedLock} health indicator of the Redis store, in place of the store-neutral one, when Spring
 * Boot's health support is present.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = SupportedSpringBoot.HEALTH_INDICATOR)
class RedisLockHealthConfiguration {

    @Configuration(proxyBeanMethods = false)
    @Conditional(OnEnabledLockHealthIndicatorCondition.class)
    @ConditionalOnBean(RedisLockRepository.class)
    static class HealthIndicatorConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "distributedLockHealthIndicator")
        RedisLockHealthIndicator distributedLockHealthIndicator(RedisLockRepository lockRepository,
                ObjectProvider<LockManager> lockManager) {
            return new RedisLockHealthIndicator(lockRepository, lockManager);
        }
    }
}
