package io.distlock.spring.store;

import io.distlock.core.LockRepository;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.Environment;

/**
 * Fails the start when {@code distributed-lock.store} chooses a store that no auto-configuration could set up — its
 * module or Spring's support for it missing from the class path, or, for {@code jdbc}, no data source to use — and
 * the application defines no {@link LockRepository} of its own: without one there is no lock manager, and guarded
 * methods would run unguarded. A value that names no store fails as Spring Boot's binding fails, listing the valid
 * ones. Runs after every store's auto-configuration, and only when the property is set: a store detected rather than
 * chosen is left as it is. The check is a bean created eagerly, with lazy initialisation too.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class, afterName = {
        "io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration",
        "io.distlock.spring.redis.DistributedLockRedisAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@ConditionalOnProperty(name = "distributed-lock.store")
@ConditionalOnMissingBean(LockRepository.class)
public final class DistributedLockStoreCheckAutoConfiguration {

    @Bean
    @Lazy(false)
    static ChosenStoreCheck distributedLockChosenStoreCheck(Environment environment,
            ConfigurableListableBeanFactory beanFactory) {
        ClassLoader classLoader = beanFactory.getBeanClassLoader();
        ChosenStoreCheck check = new ChosenStoreCheck(environment, beanFactory, classLoader != null ? classLoader
                : DistributedLockStoreCheckAutoConfiguration.class.getClassLoader());
        check.verify();
        return check;
    }
}
