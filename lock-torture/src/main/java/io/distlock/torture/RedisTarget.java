package io.distlock.torture;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.types.RedisClientInfo;

/**
 * The Redis server of {@code --db redis}: the tests' server, named by {@code DISTLOCK_TEST_REDIS_URL} (default
 * {@code redis://127.0.0.1:6379}), which other programs may share. Everything a run writes is under a key prefix of
 * its own, and the disconnect fault kills only the connections of the worker it is aimed at, found by the client
 * name every worker gives its connections.
 */
final class RedisTarget {

    /** The environment variable naming the server, as in the tests. */
    static final String URL_VARIABLE = "DISTLOCK_TEST_REDIS_URL";

    private static final String DEFAULT_URL = "redis://127.0.0.1:6379";

    private final URI url;

    private RedisTarget(URI url) {
        this.url = url;
    }

    static RedisTarget fromEnvironment() {
        String url = System.getenv(URL_VARIABLE);
        return new RedisTarget(URI.create(url == null || url.isBlank() ? DEFAULT_URL : url.strip()));
    }

    static RedisTarget of(String url) {
        return new RedisTarget(URI.create(url));
    }

    String url() {
        return url.toString();
    }

    /**
     * A started connection factory whose connections carry {@code clientName}, each command bounded by
     * {@code commandTimeout}.
     */
    LettuceConnectionFactory connectionFactory(String clientName, Duration commandTimeout) {
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(url.getHost(),
                url.getPort() > 0 ? url.getPort() : 6379);
        String userInfo = url.getUserInfo();
        if (userInfo != null && !userInfo.isEmpty()) {
            int colon = userInfo.indexOf(':');
            if (colon >= 0) {
                if (colon > 0) {
                    server.setUsername(userInfo.substring(0, colon));
                }
                server.setPassword(userInfo.substring(colon + 1));
            }
            else {
                server.setPassword(userInfo);
            }
        }
        LettuceClientConfiguration client = LettuceClientConfiguration.builder().clientName(clientName)
                .commandTimeout(commandTimeout).build();
        LettuceConnectionFactory factory = new LettuceConnectionFactory(server, client);
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /** The server's clock ({@code TIME}), the clock every lease on Redis is decided by. */
    static Instant serverTime(LettuceConnectionFactory factory) {
        try (RedisConnection connection = factory.getConnection()) {
            Long millis = connection.serverCommands().time();
            return Instant.ofEpochMilli(Objects.requireNonNull(millis, "TIME"));
        }
    }

    /**
     * Kills every connection whose client name is {@code clientName} with {@code CLIENT KILL} of its address, and
     * no other: the server may serve other programs.
     *
     * @return how many connections were killed
     */
    static int killClients(LettuceConnectionFactory factory, String clientName) {
        int killed = 0;
        try (RedisConnection connection = factory.getConnection()) {
            List<RedisClientInfo> clients = connection.serverCommands().getClientList();
            for (RedisClientInfo client : clients == null ? List.<RedisClientInfo>of() : clients) {
                String address = client.getAddressPort();
                if (!clientName.equals(client.getName()) || address == null) {
                    continue;
                }
                int colon = address.lastIndexOf(':');
                try {
                    connection.serverCommands().killClient(address.substring(0, colon),
                            Integer.parseInt(address.substring(colon + 1)));
                    killed++;
                }
                catch (RuntimeException ex) {
                    // The connection closed by itself meanwhile.
                }
            }
        }
        return killed;
    }

    /** Deletes every key under the prefix, the token counters included. */
    static int deleteKeys(LettuceConnectionFactory factory, String prefix) {
        List<byte[]> keys = new ArrayList<>();
        try (RedisConnection connection = factory.getConnection()) {
            ScanOptions options = ScanOptions.scanOptions().match(escapeGlob(prefix) + "*").count(1000).build();
            try (Cursor<byte[]> cursor = connection.keyCommands().scan(options)) {
                cursor.forEachRemaining(keys::add);
            }
            for (int from = 0; from < keys.size(); from += 500) {
                connection.keyCommands().del(keys.subList(from, Math.min(keys.size(), from + 500))
                        .toArray(new byte[0][]));
            }
        }
        return keys.size();
    }

    private static String escapeGlob(String text) {
        StringBuilder escaped = new StringBuilder();
        for (char c : text.toCharArray()) {
            if ("*?[]\\".indexOf(c) >= 0) {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }

    @Override
    public String toString() {
        return url.getHost() + ":" + (url.getPort() > 0 ? url.getPort() : 6379);
    }
}
