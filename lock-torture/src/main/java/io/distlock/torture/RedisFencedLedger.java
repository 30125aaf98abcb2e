package io.distlock.torture;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The protected resource of the Redis failover run, on the same replicated Redis as the locks: per resource the
 * highest fencing token it accepted, and a write is accepted only with a token at least as high, in one script.
 * With replicas to acknowledge, an accepted write counts only once {@code WAIT} says the replica has it.
 */
final class RedisFencedLedger {

    private static final RedisScript<Long> WRITE = new DefaultRedisScript<>("""
            local highest = tonumber(redis.call('GET', KEYS[1]) or '0')
            local token = tonumber(ARGV[1])
            if token < highest then
              return 0
            end
            redis.call('SET', KEYS[1], ARGV[1])
            return 1
            """, Long.class);

    private final StringRedisTemplate redis;

    private final String prefix;

    private final int replicas;

    private final long timeoutMillis;

    RedisFencedLedger(RedisConnectionFactory factory, String prefix, int replicas, long timeoutMillis) {
        this.redis = new StringRedisTemplate(factory);
        this.prefix = prefix;
        this.replicas = replicas;
        this.timeoutMillis = timeoutMillis;
    }

    /**
     * Writes with a token.
     *
     * @return whether the ledger accepted it (and, with replicas to acknowledge, they did)
     */
    boolean write(String resource, long token) {
        Boolean accepted = redis.execute(new SessionCallback<@Nullable Boolean>() {
            @Override
            public <K, V> Boolean execute(RedisOperations<K, V> operations) {
                String before = replicas == 0 ? "" : connectionIdentity();
                Long reply = redis.execute(WRITE, List.of(prefix + "ledger:{" + resource + "}"),
                        Long.toString(token));
                if (reply == null || reply != 1) {
                    return false;
                }
                return replicas == 0 || acknowledged() >= replicas && before.equals(connectionIdentity());
            }
        });
        return Boolean.TRUE.equals(accepted);
    }

    private long acknowledged() {
        Object reply = redis.execute((RedisCallback<Object>) connection -> ((LettuceConnection) connection)
            .execute("WAIT", new IntegerOutput<>(ByteArrayCodec.INSTANCE), bytes(replicas), bytes(timeoutMillis)),
                true);
        return reply instanceof Number count ? count.longValue() : 0;
    }

    /** The connection's id and addresses: a WAIT on another connection than the write's says nothing of it. */
    private String connectionIdentity() {
        Object reply = redis.execute((RedisCallback<Object>) connection -> connection.execute("CLIENT",
                "INFO".getBytes(StandardCharsets.US_ASCII)), true);
        String info = reply instanceof byte[] raw ? new String(raw, StandardCharsets.UTF_8) : String.valueOf(reply);
        StringBuilder identity = new StringBuilder();
        for (String field : info.strip().split(" ")) {
            if (field.startsWith("id=") || field.startsWith("addr=") || field.startsWith("laddr=")) {
                identity.append(field).append(' ');
            }
        }
        return identity.toString();
    }

    private static byte[] bytes(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }
}
