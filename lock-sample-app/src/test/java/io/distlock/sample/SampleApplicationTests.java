package io.distlock.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.distlock.sample.ledger.LedgerRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample service boots on embedded H2: its jobs run once per slot and print their lines, the fenced ledger fills
 * in the sample's own tables, and the HTTP lock API and the Actuator endpoints answer.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = { "spring.datasource.url=jdbc:h2:mem:sample-tests;DB_CLOSE_DELAY=-1", "demo.replica=test-replica",
                "demo.ledger-work=100ms", "demo.report-work=100ms", "demo.tick-work=50ms" })
@ExtendWith(OutputCaptureExtension.class)
class SampleApplicationTests {

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Autowired
    private JsonMapper json;

    @Autowired
    private LedgerRepository ledger;

    @Autowired
    private JdbcClient jdbc;

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void guardedJobsRunAndWriteTheFencedLedger(CapturedOutput output) {
        await().atMost(Duration.ofSeconds(20)).until(() -> ledger.size() > 0);
        await().atMost(Duration.ofSeconds(20)).until(() -> output.getOut().contains("EXECUTED job=report"));
        assertThat(output.getOut()).containsPattern(
                "EXECUTED job=ledger slot=\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d[05]Z replica=test-replica token=\\d+");
        assertThat(ledger.newestToken()).isPositive();
        await().atMost(Duration.ofSeconds(20)).until(() -> output.getOut().contains("EXECUTED job=per-slot")
                && output.getOut().contains("EXECUTED job=lock-only"));
        assertThat(output.getOut()).containsPattern(
                "EXECUTED job=per-slot slot=\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ replica=test-replica token=\\d+");
        assertThat(jdbc.sql("SELECT COUNT(*) FROM sample_locks_slots WHERE job = 'ledger'").query(Long.class)
                .single()).isPositive();
    }

    @Test
    void httpLockApiAndActuatorAnswer() throws Exception {
        HttpResponse<String> acquired = call("POST", "/locks/sample:check",
                "{\"owner\": \"sample-test-owner-1f2e\", \"ttl\": \"PT30S\"}");
        assertThat(json.readTree(acquired.body()).get("acquired").asBoolean()).isTrue();
        JsonNode locks = json.readTree(call("GET", "/actuator/locks", null).body());
        assertThat(locks.get("locks").valueStream().map(l -> l.get("resource").asString())).contains("sample:check");
        JsonNode health = json.readTree(call("GET", "/actuator/health", null).body());
        assertThat(health.get("components").get("distributedLock").get("status").asString()).isEqualTo("UP");
        // The meters count this process's own leases: they appear with the first guarded job.
        await().atMost(Duration.ofSeconds(20))
                .until(() -> call("GET", "/actuator/metrics/distributed.lock.acquire", null).statusCode() == 200);
        assertThat(call("DELETE", "/locks/sample:check?owner=sample-test-owner-1f2e", null).statusCode())
                .isEqualTo(204);
    }

    @Test
    void theLockDashboardShowsTheSampleJobsReadOnly() throws Exception {
        assertThat(call("GET", "/distlock", null).body()).contains("<meta name=\"distlock-mode\" content=\"read-only\">");
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            JsonNode state = json.readTree(call("GET", "/distlock/api/state", null).body());
            return state.get("jobs").valueStream().map(job -> job.get("job").asString()).toList()
                    .containsAll(java.util.List.of("ledger", "per-slot", "report"));
        });
        JsonNode state = json.readTree(call("GET", "/distlock/api/state", null).body());
        assertThat(state.get("instance").asString()).isEqualTo("test-replica");
        assertThat(call("POST", "/distlock/api/locks/release", "{\"resource\": \"ledger\", \"token\": 1}")
                .statusCode()).isEqualTo(403);
    }
}
