package io.distlock.spring.store;

import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import io.distlock.core.LockManager;
import io.distlock.spring.DistributedLockDataSource;
import io.distlock.spring.support.GuardedMethods;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Fails the start, once all singletons exist and before scheduled jobs start, when the context has
 * {@code @DistributedLock} or {@code @OncePerSlot} methods but no lock manager: no store was chosen, none could be
 * detected, and they would run unguarded, on every replica at once. Says what the class path and the context lack.
 * {@code distributed-lock.enabled=false} is the way to run them without locks on purpose.
 */
final class NoLockStoreCheck implements SmartInitializingSingleton {

    private final ConfigurableListableBeanFactory beanFactory;

    private final ClassLoader classLoader;

    NoLockStoreCheck(ConfigurableListableBeanFactory beanFactory, ClassLoader classLoader) {
        this.beanFactory = beanFactory;
        this.classLoader = classLoader;
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (beanFactory.getBeanNamesForType(LockManager.class, true, false).length > 0) {
            return;
        }
        List<String> methods = GuardedMethods.of(beanFactory);
        if (methods.isEmpty()) {
            return;
        }
        throw new LockStoreMissingException(methods.size() + (methods.size() == 1 ? " guarded method" : " guarded "
                + "methods") + " but no lock store: " + String.join("; ", reasons()) + ". There is no lock manager, "
                + "and " + (methods.size() == 1 ? "it" : "they") + " would run unguarded, on every replica at once: "
                + GuardedMethods.named(methods),
                "Configure a lock store: a DataSource (spring.datasource.url, spring-boot-starter-jdbc and the "
                        + "database's driver) with io.distlock:lock-jdbc, or Redis (spring-boot-starter-data-redis) "
                        + "with io.distlock:lock-redis. To run the methods without locks on purpose, set "
                        + "distributed-lock.enabled=false.");
    }

    private List<String> reasons() {
        boolean jdbc = present("io.distlock.jdbc.JdbcLockRepository");
        boolean redis = present("io.distlock.redis.RedisLockRepository");
        List<String> reasons = new ArrayList<>();
        if (!jdbc && !redis) {
            reasons.add("neither lock-jdbc nor lock-redis is on the class path");
        }
        if (jdbc) {
            int dataSources = beanFactory.getBeanNamesForType(DataSource.class, true, false).length;
            reasons.add(dataSources == 0 ? "lock-jdbc is on the class path, but the application has no DataSource"
                    : dataSources > 1 ? "lock-jdbc is on the class path, but none of the " + dataSources
                            + " DataSources is primary or marked @" + DistributedLockDataSource.class.getSimpleName()
                            : "lock-jdbc is on the class path with one DataSource, but its auto-configuration did "
                                    + "not run (excluded?)");
        }
        if (redis) {
            boolean factory = present("org.springframework.data.redis.connection.RedisConnectionFactory")
                    && beanFactory.getBeanNamesForType(ClassUtils.resolveClassName(
                            "org.springframework.data.redis.connection.RedisConnectionFactory", classLoader), true,
                            false).length > 0;
            reasons.add(factory ? "lock-redis is on the class path with a RedisConnectionFactory, but its "
                    + "auto-configuration did not run (excluded?)"
                    : "lock-redis is on the class path, but the application has no RedisConnectionFactory");
        }
        return reasons;
    }

    private boolean present(String className) {
        return ClassUtils.isPresent(className, classLoader);
    }
}
