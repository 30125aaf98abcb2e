package io.distlock.spring;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.distlock.core.CurrentLease;
import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A whole application on the Spring Boot it is built with, over real HTTP: the start creates the lock table, a
 * {@code @DistributedLock} method runs under its lock and is skipped while another owner holds it, and
 * {@code /actuator/locks}, the health indicator and the lock meters show the locks. Both starters run this test, each on its own
 * Spring Boot generation, so it uses only types both generations share.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = GuardedApplicationEndToEndTests.TestApplication.class,
        properties = { "spring.datasource.url=jdbc:h2:mem:guarded-application;DB_CLOSE_DELAY=-1",
                "management.endpoints.web.exposure.include=health,locks,metrics",
                "management.endpoint.health.show-details=always" })
class GuardedApplicationEndToEndTests {

    private final HttpClient http = HttpClient.newHttpClient();

    @Autowired
    private ReportJob job;

    @Autowired
    private LockManager locks;

    @Autowired
    private JdbcTemplate jdbc;

    @LocalServerPort
    private int port;

    private Map<String, Object> get(String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
        return JsonParserFactory.getJsonParser().parseMap(response.body());
    }

    @Test
    void startCreatesTheLockTable() {
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM distributed_locks", Integer.class)).isNotNull();
    }

    @Test
    @SuppressWarnings("unchecked")
    void guardedMethodRunsUnderItsLockAndIsSkippedWhileAnotherOwnerHoldsIt() throws Exception {
        assertThat(job.generate("2026-05")).isEqualTo("report:2026-05");
        try (Lease other = locks.tryAcquire("report:2026-06", Duration.ofMinutes(1)).orElseThrow()) {
            assertThat(job.generate("2026-06")).as("skipped while another owner holds the lock").isNull();
            assertThat(job.runs()).containsExactly("report:2026-05");
            assertThat(other.isLost()).isFalse();
        }
        List<Map<String, Object>> acquires = (List<Map<String, Object>>) get(
                "/actuator/metrics/distributed.lock.acquire").get("measurements");
        assertThat(((Number) acquires.get(0).get("value")).doubleValue()).isGreaterThanOrEqualTo(3.0);
    }

    @Test
    @SuppressWarnings("unchecked")
    void actuatorShowsTheHeldLockAndTheHealthOfTheLockTable() throws Exception {
        try (Lease held = locks.tryAcquire("nightly-export", Duration.ofMinutes(1)).orElseThrow()) {
            List<Map<String, Object>> all = (List<Map<String, Object>>) get("/actuator/locks").get("locks");
            assertThat(all).extracting(lock -> lock.get("resource")).contains("nightly-export");
            assertThat(get("/actuator/locks/nightly-export").get("owner")).isEqualTo(held.owner());

            Map<String, Object> components = (Map<String, Object>) get("/actuator/health").get("components");
            Map<String, Object> health = (Map<String, Object>) components.get("distributedLock");
            assertThat(health.get("status")).isEqualTo("UP");
            Map<String, Object> details = (Map<String, Object>) health.get("details");
            assertThat(((Number) details.get("activeLeases")).intValue()).isGreaterThanOrEqualTo(1);
        }
    }

    /** The guarded job: a month's report, at most one run at a time across replicas. */
    static class ReportJob {

        private final List<String> runs = new CopyOnWriteArrayList<>();

        @DistributedLock(resource = "report:#{#month}", onLocked = OnLocked.SKIP)
        public String generate(String month) {
            String resource = CurrentLease.require().resource();
            runs.add(resource);
            return resource;
        }

        public List<String> runs() {
            return runs;
        }
    }

    /** An application with the guarded job, the web server and Actuator. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(ReportJob.class)
    static class TestApplication {
    }
}
