package io.distlock.spring.redis;

/**
 * Where the locks are kept.
 */
public enum LockStore {

    /** A lock table in the application's {@code DataSource}: H2, PostgreSQL or MariaDB. */
    JDBC,

    /** Redis 7 through the application's {@code RedisConnectionFactory}. */
    REDIS
}
