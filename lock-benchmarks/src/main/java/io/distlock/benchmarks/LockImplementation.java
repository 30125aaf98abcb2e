package io.distlock.benchmarks;

import java.util.Arrays;
import java.util.List;

/**
 * The implementations compared, by the ids used in parameters, {@code RATIO} and {@code STATEMENTS} lines: distlock
 * on every store, its peers on the databases or on Redis.
 */
public enum LockImplementation {

    /** distlock's {@code LockManager}. */
    DISTLOCK("distlock"),

    /** ShedLock's {@code JdbcTemplateLockProvider}. */
    SHEDLOCK("shedlock"),

    /** Spring Integration's {@code JdbcLockRegistry}. */
    JDBC_LOCK_REGISTRY("jdbclockregistry"),

    /** Two plain single-row updates. */
    FLOOR("floor"),

    /** PostgreSQL session advisory locks. */
    PG_ADVISORY("pg-advisory"),

    /** Redisson's {@code RLock}. */
    REDISSON("redisson"),

    /** Spring Integration's {@code RedisLockRegistry}. */
    REDIS_LOCK_REGISTRY("redislockregistry");

    private final String id;

    LockImplementation(String id) {
        this.id = id;
    }

    /**
     * Looks an implementation up by its id.
     *
     * @param id the id, such as {@code shedlock}
     * @return the implementation
     */
    public static LockImplementation byId(String id) {
        return Arrays.stream(values()).filter(impl -> impl.id.equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown implementation '" + id + "'"));
    }

    /**
     * The implementations that run on a store.
     *
     * @param store a database id, or {@link RedisServer#ID}
     * @return their ids, distlock first
     */
    public static List<String> idsFor(String store) {
        return Arrays.stream(values()).filter(impl -> impl.runsOn(store)).map(LockImplementation::id).toList();
    }

    /** @return the id */
    public String id() {
        return id;
    }

    /**
     * Whether this implementation runs on a store.
     *
     * @param store a database id, or {@link RedisServer#ID}
     * @return {@code true} for distlock everywhere, advisory locks on PostgreSQL, Redisson and the
     *     {@code RedisLockRegistry} on Redis and the others on every database
     */
    public boolean runsOn(String store) {
        boolean redis = store.equals(RedisServer.ID);
        return switch (this) {
            case DISTLOCK -> true;
            case SHEDLOCK, JDBC_LOCK_REGISTRY, FLOOR -> !redis;
            case PG_ADVISORY -> store.equals("postgresql");
            case REDISSON, REDIS_LOCK_REGISTRY -> redis;
        };
    }

    /**
     * Opens one node's client.
     *
     * @param store where the locks live, with its shared pool or clients
     * @param node the node's name, unique per benchmark thread
     * @return the client
     */
    LockClient open(LockStore store, String node) {
        return switch (this) {
            case DISTLOCK -> new DistlockClient(store.distlockRepository());
            case SHEDLOCK -> new ShedLockClient(database(store).dataSource(), node);
            case JDBC_LOCK_REGISTRY -> new LockRegistryClient(IntegrationRegistry.jdbc(database(store).dataSource()));
            case FLOOR -> new FloorClient(database(store).database(), database(store).dataSource(), node);
            case PG_ADVISORY -> new AdvisoryLockClient(database(store).dataSource());
            case REDISSON -> new RLockClient(redis(store).redisson());
            case REDIS_LOCK_REGISTRY -> new LockRegistryClient(IntegrationRegistry.redis(redis(store).connectionFactory()));
        };
    }

    private LockStore.Database database(LockStore store) {
        if (store instanceof LockStore.Database database) {
            return database;
        }
        throw new IllegalArgumentException(id + " runs on a database, not on " + store.id());
    }

    private LockStore.Redis redis(LockStore store) {
        if (store instanceof LockStore.Redis redis) {
            return redis;
        }
        throw new IllegalArgumentException(id + " runs on Redis, not on " + store.id());
    }
}
