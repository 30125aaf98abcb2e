package io.distlock.redis.testsupport;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The real Redis the tests run on, named by {@code DISTLOCK_TEST_REDIS_URL} (default
 * {@code redis://127.0.0.1:6379}). When it cannot be reached its tests are skipped with a notice, unless
 * {@code DISTLOCK_TEST_REQUIRE} names {@code redis}: then they fail, so that CI never passes by skipping them. Each
 * test class works under a key prefix of its own and deletes its keys afterwards, so the server may be shared.
 */
public final class TestRedis {

    private static final URI URL = URI.create(env("DISTLOCK_TEST_REDIS_URL", "redis://127.0.0.1:6379"));

    private static volatile LettuceConnectionFactory shared;

    private static volatile String problem;

    private TestRedis() {
    }

    /** @return the server's host */
    public static String host() {
        return URL.getHost();
    }

    /** @return the server's port */
    public static int port() {
        return URL.getPort() > 0 ? URL.getPort() : 6379;
    }

    /**
     * Whether {@code DISTLOCK_TEST_REQUIRE} demands Redis.
     *
     * @return {@code true} when an unreachable server must fail the tests
     */
    public static boolean required() {
        String require = System.getenv("DISTLOCK_TEST_REQUIRE");
        if (require == null) {
            return false;
        }
        Set<String> names = Arrays.stream(require.split(",")).map(s -> s.strip().toLowerCase(Locale.ROOT))
                .collect(Collectors.toSet());
        return names.contains("redis") || names.contains("all");
    }

    /**
     * Aborts the calling test with a notice when Redis cannot be reached, or fails it when Redis is
     * {@linkplain #required() required}.
     */
    public static void assumeAvailable() {
        String found = problem();
        if (found.isEmpty()) {
            return;
        }
        String message = "Redis at " + URL + " is unreachable (" + found + ")";
        if (required()) {
            Assertions.fail(message + " but DISTLOCK_TEST_REQUIRE demands it");
        }
        System.err.println("NOTICE: " + message + ": its tests are skipped");
        Assumptions.abort(message + ": skipped");
    }

    /**
     * The connection factory shared by the tests, started.
     *
     * @return the factory
     */
    public static synchronized LettuceConnectionFactory connectionFactory() {
        assumeAvailable();
        if (shared == null) {
            shared = connectionFactory(server -> { }, client -> client.clientName("distlock-tests"));
        }
        return shared;
    }

    /**
     * A new, started connection factory on the test server, configured as the caller says; the caller destroys it.
     *
     * @param server changes to the server's configuration (database, user, password)
     * @param client changes to the client's configuration (timeouts, client name)
     * @return the factory
     */
    public static LettuceConnectionFactory connectionFactory(Consumer<RedisStandaloneConfiguration> server,
            Consumer<LettuceClientConfiguration.LettuceClientConfigurationBuilder> client) {
        return connectionFactory(host(), port(), server, client);
    }

    /**
     * A new, started connection factory on any server; the caller destroys it.
     *
     * @param host the host
     * @param port the port
     * @param server changes to the server's configuration
     * @param client changes to the client's configuration
     * @return the factory
     */
    public static LettuceConnectionFactory connectionFactory(String host, int port,
            Consumer<RedisStandaloneConfiguration> server,
            Consumer<LettuceClientConfiguration.LettuceClientConfigurationBuilder> client) {
        RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(host, port);
        server.accept(configuration);
        LettuceClientConfiguration.LettuceClientConfigurationBuilder builder = LettuceClientConfiguration.builder()
                .commandTimeout(Duration.ofSeconds(10));
        client.accept(builder);
        LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration, builder.build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /**
     * A template on the shared factory, for tests that look at or change keys directly.
     *
     * @return the template
     */
    public static StringRedisTemplate template() {
        return new StringRedisTemplate(connectionFactory());
    }

    /**
     * A key prefix no other test class uses.
     *
     * @return the prefix, ending in {@code :}
     */
    public static String newPrefix() {
        return "distlock-test:" + UUID.randomUUID().toString().substring(0, 8) + ":";
    }

    /**
     * Deletes every key under a prefix made by {@link #newPrefix()}.
     *
     * @param prefix the prefix
     */
    public static void deleteKeys(String prefix) {
        if (!problem().isEmpty()) {
            return;
        }
        StringRedisTemplate template = template();
        List<String> keys = new ArrayList<>();
        try (Cursor<String> cursor = template.scan(ScanOptions.scanOptions().match(prefix + "*").count(1000).build())) {
            cursor.forEachRemaining(keys::add);
        }
        for (int from = 0; from < keys.size(); from += 1000) {
            template.unlink(keys.subList(from, Math.min(keys.size(), from + 1000)));
        }
    }

    private static String problem() {
        String found = problem;
        if (found == null) {
            found = probe();
            problem = found;
        }
        return found;
    }

    private static String probe() {
        LettuceConnectionFactory factory = null;
        try {
            factory = connectionFactory(server -> { }, client -> client.commandTimeout(Duration.ofSeconds(3)));
            try (RedisConnection connection = factory.getConnection()) {
                String pong = connection.ping();
                return "PONG".equalsIgnoreCase(pong) ? "" : "PING answered " + pong;
            }
        }
        catch (RuntimeException ex) {
            return ex.getMessage();
        }
        finally {
            if (factory != null) {
                factory.destroy();
            }
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
