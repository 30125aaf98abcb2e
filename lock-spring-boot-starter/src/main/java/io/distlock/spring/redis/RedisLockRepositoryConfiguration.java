package io.distlock.spring.redis;

import java.time.Duration;

import io.distlock.core.LockRepository;
import io.distlock.redis.RedisLockRepository;
import io.distlock.spring.autoconfigure.DistributedLockProperties;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The Redis lock repository, unless the application defines a {@link LockRepository} of its own.
 */
@Configuration(proxyBeanMethods = false)
class RedisLockRepositoryConfiguration {

    static final String COMMAND_TIMEOUT = "spring.data.redis.timeout";

    @Bean
    @ConditionalOnMissingBean(LockRepository.class)
    RedisLockRepository lockRepository(RedisConnectionFactory redisConnectionFactory,
            DistributedLockProperties properties, DistributedLockStoreProperties storeProperties,
            Environment environment) {
        DistributedLockStoreProperties.Redis redis = storeProperties.getRedis();
        return RedisLockRepository.builder(redisConnectionFactory)
            .keyPrefix(redis.getKeyPrefix())
            .maxTtl(properties.getMaxTtl())
            .replicasToAcknowledge(redis.getReplicasToAcknowledge(), acknowledgementTimeout(redis, environment))
            .build();
    }

    /** The acknowledgement timeout, refused when the Redis client would time the WAIT out before it ends. */
    private static Duration acknowledgementTimeout(DistributedLockStoreProperties.Redis redis,
            Environment environment) {
        Duration timeout = redis.getAcknowledgementTimeout();
        Duration commandTimeout = Binder.get(environment).bind(COMMAND_TIMEOUT, Duration.class).orElse(null);
        if (redis.getReplicasToAcknowledge() > 0 && commandTimeout != null && timeout.compareTo(commandTimeout) >= 0) {
            throw new IllegalArgumentException("distributed-lock.redis.acknowledgement-timeout (" + timeout
                    + ") must be shorter than the Redis command timeout " + COMMAND_TIMEOUT + " (" + commandTimeout
                    + "), or the client gives up on the wait for replicas before Redis answers it");
        }
        return timeout;
    }
}
