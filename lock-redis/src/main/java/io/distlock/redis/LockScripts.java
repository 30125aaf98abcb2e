package io.distlock.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts of the lock repository, read from {@code io/distlock/redis/*.lua} beside this class, each preceded
 * by the shared helpers of {@code common.lua}. Spring Data Redis runs them with {@code EVALSHA} and falls back to
 * {@code EVAL} when the server answers {@code NOSCRIPT}, as after a restart.
 */
final class LockScripts {

    static final RedisScript<List<Object>> ACQUIRE = load("acquire");

    static final RedisScript<List<Object>> RENEW = load("renew");

    static final RedisScript<List<Object>> RELEASE = load("release");

    static final RedisScript<List<Object>> FORCE_RELEASE = load("force-release");

    static final RedisScript<List<Object>> RENEW_ALL = load("renew-all");

    static final RedisScript<List<Object>> READ = load("read");

    static final RedisScript<String> PROBE = new DefaultRedisScript<>(text("probe"), String.class);

    static final RedisScript<List<Object>> CLAIM_SLOT = load("slot-claim");

    static final RedisScript<Long> FINISH_SLOT = new DefaultRedisScript<>(text("slot-finish"), Long.class);

    private LockScripts() {
    }

    @SuppressWarnings("unchecked")
    private static RedisScript<List<Object>> load(String name) {
        return new DefaultRedisScript<>(text(name), (Class<List<Object>>) (Class<?>) List.class);
    }

    private static String text(String name) {
        return read("common") + read(name);
    }

    private static String read(String name) {
        String location = name + ".lua";
        try (InputStream in = LockScripts.class.getResourceAsStream(location)) {
            if (in == null) {
                throw new IllegalStateException("Lock script io/distlock/redis/" + location
                        + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read lock script io/distlock/redis/" + location, ex);
        }
    }
}
