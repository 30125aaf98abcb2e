package io.distlock.benchmarks;

import java.lang.reflect.Method;
import java.util.function.Supplier;

import io.distlock.core.LockRepository;

/**
 * distlock's Redis store, {@code io.distlock.redis.RedisLockRepository} over a Lettuce connection factory of Spring
 * Data Redis, reached by reflection: the benchmarks build and run without it, and measure it when the
 * {@code redis-store} profile (or anything else) puts it on the class path.
 */
final class RedisStore {

    static final String REPOSITORY_CLASS = "io.distlock.redis.RedisLockRepository";

    private static final String FACTORY_INTERFACE = "org.springframework.data.redis.connection.RedisConnectionFactory";

    private static final String LETTUCE_FACTORY =
            "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory";

    private static final String STANDALONE = "org.springframework.data.redis.connection.RedisStandaloneConfiguration";

    private RedisStore() {
    }

    /**
     * Whether the store and a Lettuce connection factory are on the class path.
     *
     * @return {@code true} when {@link #open()} can work
     */
    static boolean available() {
        try {
            Class.forName(REPOSITORY_CLASS, false, RedisStore.class.getClassLoader());
            Class.forName(LETTUCE_FACTORY, false, RedisStore.class.getClassLoader());
            return true;
        }
        catch (ClassNotFoundException | LinkageError ex) {
            return false;
        }
    }

    /**
     * Opens a connection factory on the benchmark's Redis server.
     *
     * @return the factory and a supplier of repositories on it, each under the benchmark's key prefix
     */
    static Opened open() {
        try {
            ClassLoader loader = RedisStore.class.getClassLoader();
            Class<?> standalone = Class.forName(STANDALONE, true, loader);
            Object server = standalone.getConstructor(String.class, int.class).newInstance(RedisServer.host(),
                    RedisServer.port());
            Class<?> lettuce = Class.forName(LETTUCE_FACTORY, true, loader);
            Object factory = lettuce.getConstructor(standalone).newInstance(server);
            lettuce.getMethod("afterPropertiesSet").invoke(factory);
            lettuce.getMethod("start").invoke(factory);
            Class<?> repositoryClass = Class.forName(REPOSITORY_CLASS, true, loader);
            Method builder = repositoryClass.getMethod("builder", Class.forName(FACTORY_INTERFACE, true, loader));
            Supplier<LockRepository> repositories = () -> {
                try {
                    Object configuring = builder.invoke(null, factory);
                    configuring = configuring.getClass().getMethod("keyPrefix", String.class).invoke(configuring,
                            "distlock-bench");
                    return (LockRepository) configuring.getClass().getMethod("build").invoke(configuring);
                }
                catch (ReflectiveOperationException ex) {
                    throw new IllegalStateException("Cannot build " + REPOSITORY_CLASS, ex);
                }
            };
            Runnable close = () -> {
                try {
                    lettuce.getMethod("destroy").invoke(factory);
                }
                catch (ReflectiveOperationException ex) {
                    throw new IllegalStateException("Cannot close the Lettuce connection factory", ex);
                }
            };
            return new Opened(repositories, close);
        }
        catch (ReflectiveOperationException ex) {
            throw new IllegalStateException("Cannot open distlock's Redis store on " + RedisServer.url(), ex);
        }
    }

    /**
     * An open connection factory.
     *
     * @param repositories makes a repository on it
     * @param close closes it
     */
    record Opened(Supplier<LockRepository> repositories, Runnable close) {
    }
}
