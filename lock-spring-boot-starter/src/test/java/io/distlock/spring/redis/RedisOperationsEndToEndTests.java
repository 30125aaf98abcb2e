package io.distlock.spring.redis;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.LockRepository;
import io.distlock.redis.RedisLockRepository;
import io.distlock.redis.testsupport.TestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A whole application on the Redis store over real HTTP, beside a {@code DataSource} it leaves alone: the HTTP lock
 * API, the {@code locks} endpoint, the health indicator and the lock meters work as on the JDBC store.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = RedisOperationsEndToEndTests.TestApplication.class,
        properties = { "distributed-lock.store=redis", "distributed-lock.http.enabled=true",
                "spring.datasource.url=jdbc:h2:mem:redis-operations;DB_CLOSE_DELAY=-1",
                "management.endpoints.web.exposure.include=health,metrics,locks",
                "management.endpoint.health.show-details=always", "spring.data.redis.timeout=5s" })
class RedisOperationsEndToEndTests {

    private static final String PREFIX = TestRedis.newPrefix();

    private final HttpClient http = HttpClient.newHttpClient();

    @Autowired
    private JsonMapper json;

    @Autowired
    private LockManager locks;

    @Autowired
    private LockRepository repository;

    @LocalServerPort
    private int port;

    @BeforeAll
    static void requireRedis() {
        TestRedis.assumeAvailable();
    }

    @AfterAll
    static void deleteKeys() {
        TestRedis.deleteKeys(PREFIX);
    }

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.host", TestRedis::host);
        registry.add("spring.data.redis.port", TestRedis::port);
        registry.add("distributed-lock.redis.key-prefix", () -> PREFIX);
    }

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theHttpApiAndTheLocksEndpointWorkOnRedis() throws Exception {
        assertThat(repository).isInstanceOf(RedisLockRepository.class);
        String resource = "batch:" + UUID.randomUUID();
        HttpResponse<String> acquired = call("POST", "/locks/" + resource,
                "{\"owner\": \"python-batch-7f3a\", \"ttl\": \"PT60S\"}");
        assertThat(acquired.statusCode()).isEqualTo(200);
        JsonNode lock = json.readTree(acquired.body());
        assertThat(lock.get("acquired").asBoolean()).isTrue();
        long token = lock.get("token").asLong();
        assertThat(json.readTree(call("POST", "/locks/" + resource, "{\"owner\": \"someone-else\", \"ttl\": \"PT60S\"}")
                .body()).get("acquired").asBoolean()).isFalse();

        JsonNode all = json.readTree(call("GET", "/actuator/locks", null).body());
        assertThat(all.get("locks").valueStream().map(l -> l.get("resource").asString())).contains(resource);
        assertThat(call("DELETE", "/locks/" + resource + "?owner=someone-else", null).statusCode()).isEqualTo(403);
        assertThat(call("DELETE", "/locks/" + resource + "?owner=python-batch-7f3a", null).statusCode())
                .isEqualTo(204);
        assertThat(call("GET", "/locks/" + resource, null).statusCode()).isEqualTo(404);
        JsonNode again = json.readTree(call("POST", "/locks/" + resource,
                "{\"owner\": \"someone-else\", \"ttl\": \"PT60S\"}").body());
        assertThat(again.get("token").asLong()).isGreaterThan(token);
        assertThat(call("POST", "/locks/" + resource, "{\"owner\": \"x\", \"ttl\": \"PT0S\"}").statusCode())
                .isEqualTo(400);
    }

    @Test
    void healthShowsTheRedisStoreAndMetricsCountItsTraffic() throws Exception {
        Lease lease = locks.tryAcquire("health:" + UUID.randomUUID(), Duration.ofMinutes(1)).orElseThrow();
        try {
            JsonNode health = json.readTree(call("GET", "/actuator/health", null).body());
            JsonNode lock = health.get("components").get("distributedLock");
            assertThat(lock.get("status").asString()).isEqualTo("UP");
            assertThat(lock.get("details").get("store").asString()).isEqualTo("redis");
            assertThat(lock.get("details").get("keyPrefix").asString()).isEqualTo(PREFIX);
            assertThat(lock.get("details").get("activeLeases").asInt()).isGreaterThanOrEqualTo(1);
        }
        finally {
            lease.release();
        }
        HttpResponse<String> metric = call("GET", "/actuator/metrics/distributed.lock.acquire", null);
        assertThat(metric.statusCode()).isEqualTo(200);
        assertThat(json.readTree(metric.body()).get("measurements").get(0).get("value").asDouble())
                .isGreaterThanOrEqualTo(1.0);
    }

    /** An application with a DataSource, Redis, the HTTP API, Actuator and metrics. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {
    }
}
