package io.distlock.torture;

/**
 * Where the workers' locks live. The protected resources (the unfenced counter and the fenced ledger) are always in
 * a database: on Redis, in the controller's in-memory H2 database, which its TCP server serves to the workers.
 */
enum LockStore {

    /** The lock table of {@code JdbcLockRepository}, in the same database as the protected resources. */
    JDBC,

    /** {@code RedisLockRepository} on the local Redis server, under a key prefix of the run's own. */
    REDIS
}
