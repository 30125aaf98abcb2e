package io.distlock.spring.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import javax.sql.DataSource;

import io.distlock.spring.DistributedLockDataSource;
import io.distlock.spring.redis.LockStore;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Says why the store {@code distributed-lock.store} chose could not be set up, when no lock repository exists: what
 * is missing from the class path, or the data source a JDBC store needs.
 */
final class ChosenStoreCheck {

    static final String PROPERTY = "distributed-lock.store";

    private final Environment environment;

    private final ListableBeanFactory beanFactory;

    private final ClassLoader classLoader;

    ChosenStoreCheck(Environment environment, ListableBeanFactory beanFactory, ClassLoader classLoader) {
        this.environment = environment;
        this.beanFactory = beanFactory;
        this.classLoader = classLoader;
    }

    /**
     * Fails, since no lock repository exists although a store is chosen.
     *
     * @throws LockStoreMissingException saying what is missing
     * @throws org.springframework.boot.context.properties.bind.BindException when the value names no store
     */
    void verify() {
        LockStore store = Binder.get(environment).bind(PROPERTY, LockStore.class).orElse(null);
        if (store == null) {
            return;
        }
        String chosen = PROPERTY + "=" + store.name().toLowerCase(Locale.ROOT);
        throw switch (store) {
            case REDIS -> redisMissing(chosen);
            case JDBC -> jdbcMissing(chosen);
        };
    }

    private LockStoreMissingException redisMissing(String chosen) {
        List<String> missing = new ArrayList<>();
        if (!present("io.distlock.redis.RedisLockRepository")) {
            missing.add("lock-redis (io.distlock:lock-redis)");
        }
        if (!present("org.springframework.data.redis.connection.RedisConnectionFactory")) {
            missing.add("Spring Data Redis (org.springframework.boot:spring-boot-starter-data-redis)");
        }
        if (missing.isEmpty()) {
            return new LockStoreMissingException(chosen + " is set, but no Redis lock repository was configured",
                    "Check that the Redis store's auto-configuration is not excluded, or define a LockRepository "
                            + "bean of your own.");
        }
        return new LockStoreMissingException(chosen + " is set, but " + String.join(" and ", missing)
                + (missing.size() > 1 ? " are" : " is") + " not on the class path: the application would have no "
                + "lock manager, and its guarded methods would run unguarded",
                "Add " + String.join(" and ", missing) + " to the application's dependencies, or set " + PROPERTY
                        + " to jdbc for a lock table in its DataSource.");
    }

    private LockStoreMissingException jdbcMissing(String chosen) {
        if (!present("io.distlock.jdbc.JdbcLockRepository")) {
            return new LockStoreMissingException(chosen + " is set, but lock-jdbc (io.distlock:lock-jdbc) is not on "
                    + "the class path: the application would have no lock manager, and its guarded methods would run "
                    + "unguarded", "Add lock-jdbc (io.distlock:lock-jdbc) to the application's dependencies, or set "
                            + PROPERTY + " to redis.");
        }
        String[] dataSources = beanFactory.getBeanNamesForType(DataSource.class, true, false);
        if (dataSources.length == 0) {
            return new LockStoreMissingException(chosen + " is set, but the application has no DataSource for the "
                    + "lock table: it would have no lock manager, and its guarded methods would run unguarded",
                    "Configure a DataSource (spring.datasource.url with spring-boot-starter-jdbc and the database's "
                            + "driver), or set " + PROPERTY + " to redis.");
        }
        return new LockStoreMissingException(chosen + " is set, but the application has " + dataSources.length
                + " DataSources " + Arrays.toString(dataSources) + ", none of them primary or marked "
                + "@DistributedLockDataSource: the lock table's is unknown, so there would be no lock manager, and "
                + "guarded methods would run unguarded",
                "Mark the DataSource of the lock table with @" + DistributedLockDataSource.class.getSimpleName()
                        + ", or one of them @Primary.");
    }

    private boolean present(String className) {
        return ClassUtils.isPresent(className, classLoader);
    }
}
