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

    private static final String REDIS_CONNECTION_FACTORY =
            "org.springframework.data.redis.connection.RedisConnectionFactory";

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
        List<String> reasons = new ArrayList<>();
        List<String> actions = new ArrayList<>();
        diagnose(reasons, actions);
        throw new LockStoreMissingException(methods.size() + (methods.size() == 1 ? " guarded method" : " guarded "
                + "methods") + " but no lock store: " + String.join("; ", reasons) + ". There is no lock manager, "
                + "and " + (methods.size() == 1 ? "it" : "they") + " would run unguarded, on every replica at once: "
                + GuardedMethods.named(methods), String.join("; or ", actions) + ". To run the methods without "
                        + "locks on purpose, set distributed-lock.enabled=false.");
    }

    /** What is missing for each store, and what to do about it: only what the class path and the context lack. */
    private void diagnose(List<String> reasons, List<String> actions) {
        boolean jdbc = present("io.distlock.jdbc.JdbcLockRepository");
        boolean redis = present("io.distlock.redis.RedisLockRepository");
        if (!jdbc && !redis) {
            reasons.add("neither lock-jdbc nor lock-redis is on the class path");
            actions.add("Add a lock store: io.distlock:lock-jdbc with a DataSource (spring-boot-starter-jdbc, "
                    + "spring.datasource.url and the database's driver), or io.distlock:lock-redis with Redis "
                    + "(spring-boot-starter-data-redis)");
            return;
        }
        if (jdbc) {
            int dataSources = beanFactory.getBeanNamesForType(DataSource.class, true, false).length;
            if (dataSources == 0) {
                reasons.add("lock-jdbc is on the class path, but the application has no DataSource");
                actions.add("Configure the lock table's DataSource: spring.datasource.url and the database's driver");
            }
            else if (dataSources > 1) {
                reasons.add("lock-jdbc is on the class path, but none of the " + dataSources + " DataSources is "
                        + "primary or marked @" + DistributedLockDataSource.class.getSimpleName());
                actions.add("Mark the lock table's DataSource with @" + DistributedLockDataSource.class.getSimpleName()
                        + ", or one of them @Primary");
            }
            else {
                reasons.add("lock-jdbc is on the class path with one DataSource, but its auto-configuration did not "
                        + "run (excluded?)");
                actions.add("Let DistributedLockJdbcAutoConfiguration run, or define a LockRepository bean");
            }
        }
        if (redis) {
            boolean factory = present(REDIS_CONNECTION_FACTORY) && beanFactory.getBeanNamesForType(
                    ClassUtils.resolveClassName(REDIS_CONNECTION_FACTORY, classLoader), true, false).length > 0;
            if (factory) {
                reasons.add("lock-redis is on the class path with a RedisConnectionFactory, but its "
                        + "auto-configuration did not run (excluded?)");
                actions.add("Let DistributedLockRedisAutoConfiguration run, or define a LockRepository bean");
            }
            else {
                reasons.add("lock-redis is on the class path, but the application has no RedisConnectionFactory");
                actions.add("Configure Redis: spring-boot-starter-data-redis and spring.data.redis.*");
            }
        }
    }

    private boolean present(String className) {
        return ClassUtils.isPresent(className, classLoader);
    }
}
