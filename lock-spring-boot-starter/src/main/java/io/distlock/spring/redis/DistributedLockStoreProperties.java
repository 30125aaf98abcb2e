package io.distlock.spring.redis;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The choice of lock store and the Redis store's settings, under {@code distributed-lock}.
 */
@ConfigurationProperties("distributed-lock")
public class DistributedLockStoreProperties {

    /**
     * Where locks are kept: jdbc, a lock table in the application's DataSource, or redis, through its
     * RedisConnectionFactory. When not set, jdbc, unless the application has a RedisConnectionFactory and no
     * DataSource: then redis.
     */
    private @Nullable LockStore store;

    private final Redis redis = new Redis();

    public @Nullable LockStore getStore() {
        return store;
    }

    public void setStore(@Nullable LockStore store) {
        this.store = store;
    }

    public Redis getRedis() {
        return redis;
    }

    /**
     * Settings of the Redis lock store.
     */
    public static class Redis {

        /**
         * Prefix of the Redis keys of locks and token counters, without braces or whitespace. Applications that share
         * a Redis database share locks only when they use the same prefix.
         */
        private String keyPrefix = "distlock:";

        /**
         * Replicas that must acknowledge each acquisition and renewal (WAIT) before it counts; when fewer do within
         * the acknowledgement timeout, the lock is given back and the call answers not acquired or not renewed. 0
         * answers without waiting: a failover to a replica can then lose an acquisition and give a lock two owners.
         */
        private int replicasToAcknowledge;

        /**
         * Longest wait for the replicas to acknowledge an acquisition or renewal, at most 30s and shorter than the
         * Redis command timeout (spring.data.redis.timeout).
         */
        private Duration acknowledgementTimeout = Duration.ofSeconds(1);

        public String getKeyPrefix() {
            return keyPrefix;
        }

        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        public int getReplicasToAcknowledge() {
            return replicasToAcknowledge;
        }

        public void setReplicasToAcknowledge(int replicasToAcknowledge) {
            this.replicasToAcknowledge = replicasToAcknowledge;
        }

        public Duration getAcknowledgementTimeout() {
            return acknowledgementTimeout;
        }

        public void setAcknowledgementTimeout(Duration acknowledgementTimeout) {
            this.acknowledgementTimeout = acknowledgementTimeout;
        }
    }
}
