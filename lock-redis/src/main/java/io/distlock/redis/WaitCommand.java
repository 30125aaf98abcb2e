package io.distlock.redis;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.util.ClassUtils;

/**
 * Sends {@code WAIT} on a connection. Spring Data Redis has no method for it: a generic command works on Jedis, but
 * on Lettuce its reply, an integer, needs an integer output, which Lettuce's classes give when they are present.
 */
final class WaitCommand {

    private static final boolean LETTUCE = ClassUtils.isPresent("io.lettuce.core.output.IntegerOutput",
            WaitCommand.class.getClassLoader());

    private WaitCommand() {
    }

    /**
     * Sends {@code WAIT} with its arguments on the connection itself (not a proxy of it).
     *
     * @return the reply: the number of replicas that acknowledged
     */
    static @Nullable Object send(RedisConnection connection, byte[] replicas, byte[] timeoutMillis) {
        if (LETTUCE) {
            Object reply = OnLettuce.send(connection, replicas, timeoutMillis);
            if (reply != OnLettuce.NOT_LETTUCE) {
                return reply;
            }
        }
        return connection.execute("WAIT", replicas, timeoutMillis);
    }

    /** Loaded only when Lettuce is on the class path. */
    private static final class OnLettuce {

        static final Object NOT_LETTUCE = new Object();

        static @Nullable Object send(RedisConnection connection, byte[] replicas, byte[] timeoutMillis) {
            if (connection instanceof LettuceConnection lettuce) {
                return lettuce.execute("WAIT", new IntegerOutput<>(ByteArrayCodec.INSTANCE), replicas,
                        timeoutMillis);
            }
            return NOT_LETTUCE;
        }
    }
}
