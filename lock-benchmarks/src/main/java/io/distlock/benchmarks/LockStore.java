package io.distlock.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.core.LockRepository;
import io.distlock.redis.RedisLockRepository;
import io.distlock.testsupport.TestDatabase;
import org.jspecify.annotations.Nullable;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Where a benchmark's locks live, with the connections every node shares: a database through one pool, or the Redis
 * server through one Lettuce connection factory (distlock's Redis store, Spring Integration's
 * {@code RedisLockRegistry}) and one Redisson client. Nodes share these as they share the pool; each node still has a
 * lock client of its own.
 */
sealed interface LockStore extends AutoCloseable permits LockStore.Database, LockStore.Redis {

    /**
     * The key prefix of every Redis implementation, so that no run touches an application's keys: distlock's keys are
     * {@code distlock-bench:{<resource>}:lock} and {@code …:token}, Redisson's {@code distlock-bench:redisson:<resource>},
     * the {@code RedisLockRegistry}'s {@code distlock-bench:registry:<resource>}.
     */
    String REDIS_PREFIX = "distlock-bench:";

    /**
     * Opens a store with the benchmark's tables created and emptied.
     *
     * @param id a database id, or {@link RedisServer#ID}
     * @param name the pool's name, for thread names
     * @param resources the resources whose rows the floor needs pre-inserted
     * @return the store; close it when done
     */
    static LockStore open(String id, String name, List<String> resources) {
        if (id.equals(RedisServer.ID)) {
            return new Redis();
        }
        TestDatabase database = TestDatabase.byId(id);
        HikariDataSource pool = BenchPool.open(database, name);
        BenchSchema.create(database, pool);
        BenchSchema.reset(database, pool, resources);
        return new Database(database, pool);
    }

    /** @return the id in the report's lines: the database's id, or {@link RedisServer#ID} */
    String id();

    /** @return a new distlock repository on this store, on the benchmark's table or keys */
    LockRepository distlockRepository();

    /** Empties the benchmark's tables; nothing to do on Redis, where every lock is given back after a run. */
    void reset();

    @Override
    void close();

    /**
     * A database.
     *
     * @param database which one
     * @param dataSource the shared pool, or a wrapper of it such as the statement-counting one
     */
    record Database(TestDatabase database, DataSource dataSource) implements LockStore {

        @Override
        public String id() {
            return database.id();
        }

        @Override
        public LockRepository distlockRepository() {
            return WatchdogBenchmark.repository(database, dataSource);
        }

        @Override
        public void reset() {
            BenchSchema.reset(database, dataSource, List.of());
        }

        /** Closes the pool; a wrapper is left to whoever made it. */
        @Override
        public void close() {
            if (dataSource instanceof HikariDataSource pool) {
                pool.close();
            }
        }
    }

    /** The Redis server, each client opened when first asked for. */
    final class Redis implements LockStore {

        private @Nullable LettuceConnectionFactory connectionFactory;

        private @Nullable RedissonClient redisson;

        @Override
        public String id() {
            return RedisServer.ID;
        }

        /** @return the shared Lettuce connection factory, started */
        synchronized LettuceConnectionFactory connectionFactory() {
            if (connectionFactory == null) {
                LettuceConnectionFactory factory = new LettuceConnectionFactory(
                        new RedisStandaloneConfiguration(RedisServer.host(), RedisServer.port()));
                factory.afterPropertiesSet();
                factory.start();
                connectionFactory = factory;
            }
            return connectionFactory;
        }

        /** @return the shared Redisson client */
        synchronized RedissonClient redisson() {
            if (redisson == null) {
                Config config = new Config();
                // Few threads: the machine has two cores and the lock needs no more.
                config.setThreads(2).setNettyThreads(4);
                config.useSingleServer().setAddress(RedisServer.url()).setConnectionMinimumIdleSize(4)
                        .setConnectionPoolSize(BenchPool.SIZE).setSubscriptionConnectionMinimumIdleSize(1);
                redisson = Redisson.create(config);
            }
            return redisson;
        }

        @Override
        public LockRepository distlockRepository() {
            return RedisLockRepository.builder(connectionFactory()).keyPrefix(REDIS_PREFIX).build();
        }

        @Override
        public void reset() {
        }

        @Override
        public synchronized void close() {
            if (redisson != null) {
                redisson.shutdown(0, 2, TimeUnit.SECONDS);
                redisson = null;
            }
            if (connectionFactory != null) {
                connectionFactory.destroy();
                connectionFactory = null;
            }
        }
    }
}
