package io.distlock.spring.actuate;

import io.distlock.core.LockManager;
import io.distlock.core.LockRepository;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code locks} Actuator endpoint, when Actuator is present and the endpoint is exposed, with its web extension
 * (400 for lock names the library refuses, 503 when the lock store does not answer).
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean({ LockRepository.class, LockManager.class })
@ConditionalOnAvailableEndpoint(LocksEndpoint.class)
public final class DistributedLockEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LocksEndpoint locksEndpoint(LockRepository lockRepository, LockManager lockManager) {
        return new LocksEndpoint(lockRepository, lockManager);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(LocksEndpoint.class)
    LocksEndpointWebExtension locksEndpointWebExtension(LocksEndpoint locksEndpoint) {
        return new LocksEndpointWebExtension(locksEndpoint);
    }
}
