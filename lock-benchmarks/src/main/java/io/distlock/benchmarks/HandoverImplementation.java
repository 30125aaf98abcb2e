package io.distlock.benchmarks;

import java.util.Arrays;
import java.util.List;

import io.distlock.jdbc.JdbcLockRepository;

/**
 * The implementations of the handover scenario, by the ids used in {@code HANDOVER} lines. The {@code -remote}
 * variants give every thread a client of its own, so that the threads meet only in the store, as replicas do.
 */
enum HandoverImplementation {

    /** distlock, all threads on one {@code LockManager}. */
    DISTLOCK("distlock"),

    /** distlock, every thread on a {@code LockManager} of its own sharing the pool or connection. */
    DISTLOCK_REMOTE("distlock-remote"),

    /**
     * As {@link #DISTLOCK_REMOTE} with release notifications off: waiters learn of a release only by polling. On
     * PostgreSQL only, the one database that notifies.
     */
    DISTLOCK_REMOTE_POLLING("distlock-remote-polling"),

    /** Spring Integration's {@code JdbcLockRegistry}, all threads on one registry. */
    JDBC_LOCK_REGISTRY("jdbclockregistry"),

    /** Spring Integration's {@code JdbcLockRegistry}, every thread on a registry of its own. */
    JDBC_LOCK_REGISTRY_REMOTE("jdbclockregistry-remote"),

    /** Redisson's {@code RLock}: the anchor. */
    REDISSON("redisson"),

    /** Spring Integration's {@code RedisLockRegistry}, all threads on one registry. */
    REDIS_LOCK_REGISTRY("redislockregistry"),

    /** Spring Integration's {@code RedisLockRegistry}, every thread on a registry of its own. */
    REDIS_LOCK_REGISTRY_REMOTE("redislockregistry-remote");

    private final String id;

    HandoverImplementation(String id) {
        this.id = id;
    }

    /** @return the id in {@code HANDOVER} lines */
    String id() {
        return id;
    }

    /**
     * The implementations measured on a store.
     *
     * @param store a database id, or {@link RedisServer#ID}
     * @return them, in order
     */
    static List<HandoverImplementation> on(String store) {
        boolean redis = store.equals(RedisServer.ID);
        return Arrays.stream(values()).filter(impl -> switch (impl) {
            case DISTLOCK, DISTLOCK_REMOTE -> true;
            case DISTLOCK_REMOTE_POLLING -> store.equals("postgresql");
            case JDBC_LOCK_REGISTRY, JDBC_LOCK_REGISTRY_REMOTE -> !redis;
            case REDISSON, REDIS_LOCK_REGISTRY, REDIS_LOCK_REGISTRY_REMOTE -> redis;
        }).toList();
    }

    /**
     * Sets the implementation up for the scenario's threads.
     *
     * @param store where the lock lives, with its shared pool or clients
     * @param threads how many threads
     * @return the subject
     */
    HandoverSubject open(LockStore store, int threads) {
        return switch (this) {
            case DISTLOCK, DISTLOCK_REMOTE -> new DistlockHandover(store::distlockRepository, threads,
                    this == DISTLOCK);
            case DISTLOCK_REMOTE_POLLING -> new DistlockHandover(() -> JdbcLockRepository.builder(
                    ((LockStore.Database) store).dataSource()).tableName(BenchSchema.DISTLOCK_TABLE)
                    .dialect(((LockStore.Database) store).database().dialect()).notifyWaiters(false).build(), threads,
                    false);
            case JDBC_LOCK_REGISTRY, JDBC_LOCK_REGISTRY_REMOTE -> new LockRegistryHandover(
                    () -> IntegrationRegistry.jdbc(((LockStore.Database) store).dataSource()), threads,
                    this == JDBC_LOCK_REGISTRY);
            case REDISSON -> new RedissonHandover(((LockStore.Redis) store).redisson());
            case REDIS_LOCK_REGISTRY, REDIS_LOCK_REGISTRY_REMOTE -> new LockRegistryHandover(
                    () -> IntegrationRegistry.redis(((LockStore.Redis) store).connectionFactory()), threads,
                    this == REDIS_LOCK_REGISTRY);
        };
    }
}
