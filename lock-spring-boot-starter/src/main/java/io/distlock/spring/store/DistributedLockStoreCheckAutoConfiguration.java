package io.distlock.spring.store;

import io.distlock.core.LockRepository;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.Environment;

/**
 * Fails the start when the application would have no lock manager, its guarded methods running unguarded, and it
 * defines no {@link LockRepository} of its own:
 * <ul>
 * <li>when {@code distributed-lock.store} chooses a store that no auto-configuration could set up — its module or
 * Spring's support for it missing from the class path, or, for {@code jdbc}, no data source to use — at once, as a
 * bean created eagerly, with lazy initialisation too; a value that names no store fails as Spring Boot's binding
 * fails, listing the valid ones;</li>
 * <li>when no store is chosen and none was detected, once all singletons exist, if the context has
 * {@code @DistributedLock} or {@code @OncePerSlot} methods (without any, the starter stays out of the way).</li>
 * </ul>
 * Runs after every store's auto-configuration; {@code distributed-lock.enabled=false} turns it off.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class, afterName = {
        "io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration",
        "io.distlock.spring.redis.DistributedLockRedisAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@ConditionalOnMissingBean(LockRepository.class)
public final class DistributedLockStoreCheckAutoConfiguration {

    @Bean
    @Lazy(false)
    static NoLockStoreCheck distributedLockNoStoreCheck(ConfigurableListableBeanFactory beanFactory) {
        return new NoLockStoreCheck(beanFactory, classLoader(beanFactory));
    }

    private static ClassLoader classLoader(ConfigurableListableBeanFactory beanFactory) {
        ClassLoader classLoader = beanFactory.getBeanClassLoader();
        return classLoader != null ? classLoader : DistributedLockStoreCheckAutoConfiguration.class.getClassLoader();
    }

    /** The check of a store {@code distributed-lock.store} chose. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "distributed-lock.store")
    static class ChosenStoreConfiguration {

        @Bean
        @Lazy(false)
        static ChosenStoreCheck distributedLockChosenStoreCheck(Environment environment,
                ConfigurableListableBeanFactory beanFactory) {
            ChosenStoreCheck check = new ChosenStoreCheck(environment, beanFactory, classLoader(beanFactory));
            check.verify();
            return check;
        }
    }
}
