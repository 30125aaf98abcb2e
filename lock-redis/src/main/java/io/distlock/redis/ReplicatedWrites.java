package io.distlock.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Acquisitions and renewals that replicas must acknowledge: the script, then {@code WAIT numreplicas timeout} on the
 * same connection when it wrote (checked with {@code CLIENT INFO} before the script and after the wait), and the owner-checked release that gives back a lock too few replicas acknowledged;
 * what the server says about its replication, and the start-up line that says the mode.
 */
final class ReplicatedWrites {

    private static final Logger logger = LoggerFactory.getLogger(RedisLockRepository.class);

    private static final long WARNING_INTERVAL_NANOS = Duration.ofSeconds(10).toNanos();

    private final RedisCalls calls;

    private final RedisLockKeys keys;

    private final ReplicaAcknowledgement acknowledgement;

    private final AtomicLong lastWarning = new AtomicLong();

    private final AtomicLong unacknowledged = new AtomicLong();

    ReplicatedWrites(RedisCalls calls, RedisLockKeys keys, ReplicaAcknowledgement acknowledgement) {
        this.calls = calls;
        this.keys = keys;
        this.acknowledgement = acknowledgement;
    }

    /**
     * Runs a script and, when its reply says it wrote and replicas must acknowledge it, sends
     * {@code WAIT numreplicas timeout} on the same connection (the template's connection bound for both calls), so
     * that the wait covers the script's writes.
     *
     * @return the reply, or {@code null} when it wrote and fewer replicas than required acknowledged it in time
     */
    <T> @Nullable T run(Predicate<T> wrote, RedisScript<T> script, List<String> scriptKeys, String... args) {
        if (!acknowledgement.waits()) {
            return calls.run(script, scriptKeys, args);
        }
        requireStandalone();
        StringRedisTemplate redis = calls.template();
        return redis.execute(new SessionCallback<@Nullable T>() {
            @Override
            public <K, V> @Nullable T execute(RedisOperations<K, V> operations) {
                String before = connectionIdentity(redis);
                T reply = calls.run(script, scriptKeys, args);
                if (!wrote.test(reply)) {
                    return reply;
                }
                long acknowledged = acknowledged(redis);
                String after = connectionIdentity(redis);
                if (!before.equals(after)) {
                    logger.debug("The connection changed between a lock script and its WAIT ({} then {}): the WAIT "
                            + "says nothing of the script's writes", before, after);
                    return null;
                }
                return acknowledged >= acknowledgement.replicas() ? reply : null;
            }
        });
    }

    /**
     * The physical connection a command reaches: its id, its address and the server's ({@code CLIENT INFO}). A
     * client such as Lettuce reconnects on its own and sends again a command whose answer was lost, so the script
     * and its {@code WAIT} can reach different connections, or different servers after a failover; a {@code WAIT} on
     * a connection that did not write answers at once. The same identity before the script and after the
     * {@code WAIT} shows that both ran on one connection.
     */
    private static String connectionIdentity(StringRedisTemplate redis) {
        Object reply = redis.execute((RedisCallback<Object>) connection -> connection.execute("CLIENT",
                "INFO".getBytes(StandardCharsets.US_ASCII)), true);
        String info = reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(reply);
        StringBuilder identity = new StringBuilder();
        for (String field : info.strip().split(" ")) {
            if (field.startsWith("id=") || field.startsWith("addr=") || field.startsWith("laddr=")) {
                identity.append(field).append(' ');
            }
        }
        if (identity.isEmpty()) {
            throw new RedisSystemException("Redis answered CLIENT INFO with " + info, null);
        }
        return identity.toString().strip();
    }

    private long acknowledged(StringRedisTemplate redis) {
        byte[] replicas = Integer.toString(acknowledgement.replicas()).getBytes(StandardCharsets.US_ASCII);
        byte[] timeout = Long.toString(acknowledgement.timeout().toMillis()).getBytes(StandardCharsets.US_ASCII);
        Object reply = redis.execute((RedisCallback<Object>) connection -> WaitCommand.send(connection, replicas,
                timeout), true);
        if (reply instanceof Number count) {
            return count.longValue();
        }
        throw new RedisSystemException("Redis answered WAIT with " + reply, null);
    }

    /**
     * Releases a lock that too few replicas acknowledged (best-effort: when it fails, the lock expires by its TTL);
     * told at WARN at most once per 10 s, else at DEBUG.
     */
    void giveBack(String resource, String owner, String operation) {
        long now = System.nanoTime();
        long last = lastWarning.get();
        long since = unacknowledged.incrementAndGet();
        if ((last == 0 || now - last > WARNING_INTERVAL_NANOS) && lastWarning.compareAndSet(last, now)) {
            unacknowledged.set(0);
            logger.warn("The {} of lock '{}' was not acknowledged by {} replica(s) within {}: the lock is given back "
                    + "and the {} refused ({} such since the last warning; distributed-lock.redis."
                    + "replicas-to-acknowledge)", operation, resource, acknowledgement.replicas(),
                    acknowledgement.timeout(), operation, since);
        }
        else {
            logger.debug("The {} of lock '{}' was not acknowledged by {} replica(s) within {}: given back", operation,
                    resource, acknowledgement.replicas(), acknowledgement.timeout());
        }
        try {
            calls.run(LockScripts.RELEASE, List.of(keys.lockKey(resource)), owner, "0");
        }
        catch (DataAccessException ex) {
            logger.warn("Could not give back lock '{}' ({}): it expires by its TTL", resource, ex.getMessage());
        }
    }

    /** Refuses replicas to acknowledge on a Redis Cluster, whose {@code WAIT} would go to another connection. */
    void requireStandalone() {
        if (acknowledgement.waits() && calls.clustered()) {
            throw new IllegalStateException("replicasToAcknowledge (distributed-lock.redis.replicas-to-acknowledge) "
                    + "is " + acknowledgement.replicas() + ", but the lock store runs on a Redis Cluster, where it is "
                    + "not supported: set it to 0, or use a primary with replicas (and Sentinel)");
        }
    }

    /** What {@code INFO replication} says, with the store's setting. */
    RedisReplication replication() {
        Properties info = calls.replicationInfo();
        int connected;
        try {
            connected = Integer.parseInt(info.getProperty("connected_slaves", "0").strip());
        }
        catch (NumberFormatException ex) {
            connected = 0;
        }
        return new RedisReplication(info.getProperty("role", "unknown").strip(), connected,
                acknowledgement.replicas(), acknowledgement.timeout());
    }

    /**
     * Logs the mode at start-up: INFO, or WARN when acquisitions wait for more replicas than are connected, or when
     * replicas are connected and acquisitions do not wait for them.
     */
    void logReplication() {
        RedisReplication replication;
        try {
            replication = replication();
        }
        catch (DataAccessException ex) {
            logger.warn("Could not read the replication of the lock store's Redis (INFO replication: {})",
                    ex.getMessage());
            return;
        }
        if (replication.missingReplicas()) {
            logger.warn("Lock store: {}; but only {} replica(s) are connected, so every acquisition is refused "
                    + "until enough replicas are (distributed-lock.redis.replicas-to-acknowledge)",
                    replication.describe(), replication.connectedReplicas());
        }
        else if (!replication.waitsForReplicas() && replication.connectedReplicas() > 0) {
            logger.warn("Lock store: {}", replication.describe());
        }
        else {
            logger.info("Lock store: {}", replication.describe());
        }
    }
}
