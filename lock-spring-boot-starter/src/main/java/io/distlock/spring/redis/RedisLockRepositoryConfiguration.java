package io.distlock.spring.redis;

import io.distlock.core.LockRepository;
import io.distlock.redis.RedisLockRepository;
import io.distlock.spring.autoconfigure.DistributedLockProperties;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The Redis lock repository, unless the application defines a {@link LockRepository} of its own.
 */
@Configuration(proxyBeanMethods = false)
class RedisLockRepositoryConfiguration {

    @Bean
    @ConditionalOnMissingBean(LockRepository.class)
    RedisLockRepository lockRepository(RedisConnectionFactory redisConnectionFactory,
            DistributedLockProperties properties, DistributedLockStoreProperties storeProperties) {
        return RedisLockRepository.builder(redisConnectionFactory)
            .keyPrefix(storeProperties.getRedis().getKeyPrefix())
            .maxTtl(properties.getMaxTtl())
            .build();
    }
}
