package io.distlock.spring.actuate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.LockRepository;
import io.distlock.core.LockRequest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator's view over real HTTP: the {@code locks} endpoint, the health indicator and the lock meters after
 * lock traffic through the HTTP API and the programmatic API.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = OperationsEndToEndTests.TestApplication.class,
        properties = { "distributed-lock.http.enabled=true",
                "spring.datasource.url=jdbc:h2:mem:operations;DB_CLOSE_DELAY=-1",
                "management.endpoints.web.exposure.include=health,metrics,locks",
                "management.endpoint.health.show-details=always" })
class OperationsEndToEndTests {

    private final HttpClient http = HttpClient.newHttpClient();

    @Autowired
    private JsonMapper json;

    @Autowired
    private LockManager locks;

    @Autowired
    private LockRepository repository;

    @LocalServerPort
    private int port;

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void locksEndpointListsLocksAndThisProcessesLeasesAndForceReleases() throws Exception {
        assertThat(call("POST", "/locks/batch:9", "{\"owner\": \"python-batch-7f3a\", \"ttl\": \"PT60S\"}")
                .statusCode()).isEqualTo(200);
        Lease mine = locks.acquire(LockRequest.of("report:2026-05", Duration.ofMinutes(1)).withoutRenewal()
                .withLabel("report:#{#month}")).orElseThrow();
        try {
            JsonNode all = json.readTree(call("GET", "/actuator/locks", null).body());
            assertThat(all.get("locks").valueStream().map(l -> l.get("resource").asString()))
                    .contains("batch:9", "report:2026-05");
            assertThat(all.get("held").valueStream().map(l -> l.get("resource").asString()))
                    .containsExactly("report:2026-05");
            assertThat(all.get("held").get(0).get("name").asString()).isEqualTo("report:#{#month}");

            HttpResponse<String> one = call("GET", "/actuator/locks/batch:9", null);
            assertThat(one.statusCode()).isEqualTo(200);
            assertThat(json.readTree(one.body()).get("owner").asString()).isEqualTo("python-batch-7f3a");
            assertThat(call("GET", "/actuator/locks/nothing-here", null).statusCode()).isEqualTo(404);

            HttpResponse<String> released = call("DELETE", "/actuator/locks/batch:9", null);
            assertThat(released.statusCode()).isEqualTo(200);
            assertThat(json.readTree(released.body()).get("owner").asString()).isEqualTo("python-batch-7f3a");
            assertThat(repository.find("batch:9")).isEmpty();
            HttpResponse<String> again = call("DELETE", "/actuator/locks/batch:9", null);
            assertThat(again.statusCode()).as("nothing left to release").isEqualTo(204);
            assertThat(again.body()).isEmpty();
        }
        finally {
            mine.release();
        }
    }

    @Test
    void lockNamesTheLibraryRefusesAnswer400WithTheReasonOnReadAndForceRelease() throws Exception {
        String overLong = "x".repeat(256);
        for (String name : new String[] { overLong, "%20", "job%01eu" }) {
            for (String method : new String[] { "GET", "DELETE" }) {
                HttpResponse<String> answer = call(method, "/actuator/locks/" + name, null);
                assertThat(answer.statusCode()).as("%s /actuator/locks/%s", method, name).isEqualTo(400);
                assertThat(json.readTree(answer.body()).get("message").asString()).as("the reason")
                        .containsAnyOf("255", "blank", "control character");
            }
        }
    }

    @Test
    void healthIsUpWithLeaseCountsAndMetricsShowRealValues() throws Exception {
        Lease lease = locks.tryAcquire("health:" + System.nanoTime(), Duration.ofMinutes(1)).orElseThrow();
        try {
            JsonNode health = json.readTree(call("GET", "/actuator/health", null).body());
            JsonNode lock = health.get("components").get("distributedLock");
            assertThat(lock.get("status").asString()).isEqualTo("UP");
            assertThat(lock.get("details").get("activeLeases").asInt()).isGreaterThanOrEqualTo(1);
            assertThat(lock.get("details").get("lostLeases").asInt()).isZero();
            JsonNode replication = lock.get("details").get("replication");
            assertThat(replication).as("which replication mode the deployment is in").isNotNull();
            assertThat(replication.get("mode").asString()).isEqualTo("async");
            assertThat(replication.get("database").asString()).isNotBlank();
        }
        finally {
            lease.release();
        }
        HttpResponse<String> metric = call("GET", "/actuator/metrics/distributed.lock.acquire", null);
        assertThat(metric.statusCode()).isEqualTo(200);
        JsonNode acquire = json.readTree(metric.body());
        assertThat(acquire.get("measurements").get(0).get("value").asDouble()).isGreaterThanOrEqualTo(1.0);
        assertThat(acquire.get("availableTags").valueStream().map(t -> t.get("tag").asString()))
                .contains("lock", "outcome");
    }

    /** An application with the HTTP API, Actuator and metrics. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {
    }
}
