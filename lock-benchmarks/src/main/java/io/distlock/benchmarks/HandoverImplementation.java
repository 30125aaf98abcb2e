package io.distlock.benchmarks;

import java.util.Arrays;
import java.util.List;

import javax.sql.DataSource;

import io.distlock.core.jdbc.JdbcLockRepository;
import io.distlock.testsupport.TestDatabase;
import org.jspecify.annotations.Nullable;

/**
 * The implementations of the handover scenario, by the ids used in {@code HANDOVER} lines. The {@code -remote}
 * variants give every thread a client of its own, so that the threads meet only in the store, as replicas do.
 */
enum HandoverImplementation {

    /** distlock, all threads on one {@code LockManager}. */
    DISTLOCK("distlock", false),

    /** distlock, every thread on a {@code LockManager} of its own sharing the pool. */
    DISTLOCK_REMOTE("distlock-remote", false),

    /**
     * As {@link #DISTLOCK_REMOTE} with release notifications off: waiters learn of a release only by polling. On
     * PostgreSQL only, the one database that notifies.
     */
    DISTLOCK_REMOTE_POLLING("distlock-remote-polling", false),

    /** Spring Integration's {@code JdbcLockRegistry}, all threads on one registry. */
    JDBC_LOCK_REGISTRY("jdbclockregistry", false),

    /** Spring Integration's {@code JdbcLockRegistry}, every thread on a registry of its own. */
    JDBC_LOCK_REGISTRY_REMOTE("jdbclockregistry-remote", false),

    /** Redisson's {@code RLock}: the anchor. */
    REDISSON("redisson", true),

    /** distlock on its Redis store, all threads on one {@code LockManager}; needs the store on the class path. */
    DISTLOCK_REDIS("distlock", true),

    /** distlock on its Redis store, every thread on a {@code LockManager} of its own. */
    DISTLOCK_REDIS_REMOTE("distlock-remote", true);

    private final String id;

    private final boolean redis;

    HandoverImplementation(String id, boolean redis) {
        this.id = id;
        this.redis = redis;
    }

    /** @return the id in {@code HANDOVER} lines */
    String id() {
        return id;
    }

    /**
     * The implementations measured on a store.
     *
     * @param db a database id, or {@link RedisServer#ID}
     * @return them, in order
     */
    static List<HandoverImplementation> on(String db) {
        boolean redisStore = db.equals(RedisServer.ID);
        return Arrays.stream(values()).filter(impl -> impl.redis == redisStore)
                .filter(impl -> impl != DISTLOCK_REDIS && impl != DISTLOCK_REDIS_REMOTE || RedisStore.available())
                .filter(impl -> impl != DISTLOCK_REMOTE_POLLING || db.equals("postgresql"))
                .toList();
    }

    /**
     * Sets the implementation up for the scenario's threads.
     *
     * @param database the database, {@code null} on Redis
     * @param pool the database's pool, {@code null} on Redis
     * @param threads how many threads
     * @return the subject
     */
    HandoverSubject open(@Nullable TestDatabase database, @Nullable DataSource pool, int threads) {
        return switch (this) {
            case DISTLOCK, DISTLOCK_REMOTE -> new DistlockHandover(
                    () -> WatchdogBenchmark.repository(required(database), required(pool)), threads,
                    this == DISTLOCK, () -> { });
            case DISTLOCK_REMOTE_POLLING -> new DistlockHandover(() -> JdbcLockRepository.builder(required(pool))
                    .tableName(BenchSchema.DISTLOCK_TABLE).dialect(required(database).dialect()).notifyWaiters(false)
                    .build(), threads, false, () -> { });
            case JDBC_LOCK_REGISTRY, JDBC_LOCK_REGISTRY_REMOTE -> new JdbcLockRegistryHandover(required(pool), threads,
                    this == JDBC_LOCK_REGISTRY);
            case REDISSON -> new RedissonHandover();
            case DISTLOCK_REDIS, DISTLOCK_REDIS_REMOTE -> {
                RedisStore.Opened store = RedisStore.open();
                yield new DistlockHandover(store.repositories(), threads, this == DISTLOCK_REDIS, store.close());
            }
        };
    }

    private static <T> T required(@Nullable T value) {
        if (value == null) {
            throw new IllegalArgumentException("a database implementation needs a database and its pool");
        }
        return value;
    }
}
