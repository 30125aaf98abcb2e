package io.distlock.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * What the Redis store sends, and how: one lock script at a time ({@code EVALSHA}, else {@code EVAL}), its failures
 * told as {@link RedisFailures} say; {@code SCAN} of the key space (never {@code KEYS}), on every primary of a Redis
 * Cluster; and the split of many keys into script calls of at most {@link RedisLockRepository#MAX_BATCH}, each call's
 * keys in one cluster slot; and what {@code INFO replication} says.
 */
final class RedisCalls {

    private static final int SCAN_COUNT = 1000;

    private final RedisConnectionFactory connectionFactory;

    private final StringRedisTemplate redis;

    private final RedisLockKeys keys;

    private volatile @Nullable Boolean clustered;

    RedisCalls(RedisConnectionFactory connectionFactory, RedisLockKeys keys) {
        this.connectionFactory = connectionFactory;
        this.redis = new StringRedisTemplate(connectionFactory);
        this.keys = keys;
    }

    /** @return the template the calls go through */
    StringRedisTemplate template() {
        return redis;
    }

    <T> T run(RedisScript<T> script, List<String> scriptKeys, String... args) {
        T reply;
        try {
            reply = redis.execute(script, scriptKeys, (Object[]) args);
        }
        catch (DataAccessException ex) {
            throw RedisFailures.ofScript(ex, keys);
        }
        if (reply == null) {
            throw new RedisSystemException("Redis answered a lock script with no reply", null);
        }
        return reply;
    }

    /** What {@code INFO replication} says of the server the store's connections reach. */
    Properties replicationInfo() {
        Properties info = redis.execute((RedisCallback<Properties>) connection -> connection.serverCommands()
                .info("replication"));
        return info != null ? info : new Properties();
    }

    /** The keys matching a pattern: a {@code SCAN} of the database, of every primary on a cluster. */
    List<String> scan(String pattern) {
        ScanOptions options = ScanOptions.scanOptions().match(pattern).count(SCAN_COUNT).build();
        Set<String> found = new LinkedHashSet<>();
        try (RedisConnection connection = connectionFactory.getConnection()) {
            if (connection instanceof RedisClusterConnection cluster) {
                for (RedisClusterNode node : cluster.clusterGetNodes()) {
                    if (node.isMaster()) {
                        collect(cluster.scan(node, options), found);
                    }
                }
            }
            else {
                collect(connection.keyCommands().scan(options), found);
            }
        }
        return new ArrayList<>(found);
    }

    private static void collect(Cursor<byte[]> cursor, Set<String> found) {
        try (cursor) {
            cursor.forEachRemaining(key -> found.add(new String(key, StandardCharsets.UTF_8)));
        }
    }

    /**
     * Splits items into script calls of at most {@link RedisLockRepository#MAX_BATCH}; on Redis Cluster, each call's
     * keys in one slot.
     */
    <T> List<List<T>> batches(List<T> items, Function<T, String> key) {
        List<List<T>> batches = new ArrayList<>();
        if (items.isEmpty()) {
            return batches;
        }
        Collection<List<T>> groups;
        if (clustered()) {
            Map<Integer, List<T>> bySlot = new LinkedHashMap<>();
            for (T item : items) {
                bySlot.computeIfAbsent(ClusterSlotHashUtil.calculateSlot(key.apply(item)), s -> new ArrayList<>())
                        .add(item);
            }
            groups = bySlot.values();
        }
        else {
            groups = List.of(items);
        }
        for (List<T> group : groups) {
            for (int from = 0; from < group.size(); from += RedisLockRepository.MAX_BATCH) {
                batches.add(group.subList(from, Math.min(group.size(), from + RedisLockRepository.MAX_BATCH)));
            }
        }
        return batches;
    }

    /** @return whether the connections go to a Redis Cluster */
    boolean clustered() {
        Boolean known = clustered;
        if (known == null) {
            try (RedisConnection connection = connectionFactory.getConnection()) {
                known = connection instanceof RedisClusterConnection;
            }
            clustered = known;
        }
        return known;
    }
}
