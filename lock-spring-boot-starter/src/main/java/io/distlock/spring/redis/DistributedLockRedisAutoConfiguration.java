package io.distlock.spring.redis;

import javax.sql.DataSource;

import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockProperties;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AllNestedConditions;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of the Redis lock store: the {@code LockRepository} on the application's
 * {@code RedisConnectionFactory}, and the {@code distributedLock} health indicator that pings it, when
 * {@code distributed-lock.store=redis}, or when the store is not set and the application has a
 * {@code RedisConnectionFactory} but no {@code DataSource}. Runs before {@link DistributedLockAutoConfiguration},
 * whose JDBC repository then backs off while its manager, watchdog and aspect use this repository. Spring Data Redis
 * and {@code lock-redis} are optional: without them this configuration is skipped.
 */
@AutoConfiguration(before = DistributedLockAutoConfiguration.class, afterName = {
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration" })
@ConditionalOnClass(name = { "io.distlock.redis.RedisLockRepository",
        "org.springframework.data.redis.connection.RedisConnectionFactory" })
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@Conditional(DistributedLockRedisAutoConfiguration.OnRedisLockStoreCondition.class)
@EnableConfigurationProperties({ DistributedLockProperties.class, DistributedLockStoreProperties.class })
@Import({ RedisLockRepositoryConfiguration.class, RedisLockHealthConfiguration.class })
public final class DistributedLockRedisAutoConfiguration {

    /**
     * Redis is the store when chosen, or when nothing is chosen and Redis is the only candidate.
     */
    static final class OnRedisLockStoreCondition extends AnyNestedCondition {

        OnRedisLockStoreCondition() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty(name = "distributed-lock.store", havingValue = "redis")
        static class RedisChosen {
        }

        @Conditional(OnlyRedisCondition.class)
        static class OnlyRedis {
        }
    }

    /**
     * No store chosen, a single {@code RedisConnectionFactory} and no {@code DataSource}.
     */
    static final class OnlyRedisCondition extends AllNestedConditions {

        OnlyRedisCondition() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty(name = "distributed-lock.store", havingValue = "redis", matchIfMissing = true)
        static class RedisOrNothingChosen {
        }

        @ConditionalOnMissingBean(DataSource.class)
        static class NoDataSource {
        }

        @ConditionalOnSingleCandidate(type = "org.springframework.data.redis.connection.RedisConnectionFactory")
        static class RedisConnectionFactoryBean {
        }
    }
}
