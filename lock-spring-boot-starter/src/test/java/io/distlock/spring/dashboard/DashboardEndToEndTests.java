package io.distlock.spring.dashboard;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The read-only dashboard over real HTTP: a page whose Content-Security-Policy allows no inline script, state JSON
 * that carries owner fingerprints and never a full owner token, filtering, ordering and paging, bad parameters
 * answered with the parameter's name, unknown paths 404, a release refused, and the URL and mode logged at start-up.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = DashboardEndToEndTests.TestApplication.class,
        properties = { "distributed-lock.dashboard.enabled=true",
                "spring.datasource.url=jdbc:h2:mem:dashboard-e2e;DB_CLOSE_DELAY=-1",
                "distributed-lock.owner-prefix=replica-7" })
@ExtendWith(OutputCaptureExtension.class)
class DashboardEndToEndTests {

    private final HttpClient http = HttpClient.newHttpClient();

    @Autowired
    private LockRepository repository;

    @LocalServerPort
    private int port;

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String contentType, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String owner(String prefix) {
        return prefix + ":" + UUID.randomUUID().toString().replace("-", "");
    }

    @Test
    void thePageAllowsNoScriptButItsOwnAndPutsNoDataInTheMarkup() throws Exception {
        HttpResponse<String> page = get("/distlock");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp -> assertThat(csp)
                .contains("script-src 'self'", "default-src 'none'", "frame-ancestors 'none'")
                .doesNotContain("unsafe-inline"));
        assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(page.body()).contains("<script src=\"/distlock/dashboard.js?v=")
                .doesNotContainPattern("<script>|<script [^s]|on(click|load|error)=")
                .contains("<meta name=\"distlock-mode\" content=\"read-only\">");
        HttpResponse<String> script = get("/distlock/dashboard.js");
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.body()).doesNotContain("innerHTML", "insertAdjacentHTML", "document.write", "eval(");
        String etag = script.headers().firstValue("ETag").orElseThrow();
        HttpResponse<String> again = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/distlock/dashboard.js")).header("If-None-Match", etag).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(again.statusCode()).isEqualTo(304);
        assertThat(get("/distlock/dashboard.css").statusCode()).isEqualTo(200);
    }

    @Test
    void theStateCarriesOwnerFingerprintsAndNeverAFullOwnerToken() throws Exception {
        List<String> owners = new ArrayList<>();
        String xss = "<img src=x onerror=alert(1)>" + UUID.randomUUID();
        for (String resource : List.of(xss, "report:" + UUID.randomUUID(), "\"quoted\" & 'single'")) {
            String owner = owner("replica-" + owners.size());
            owners.add(owner);
            repository.acquire(resource, owner, Duration.ofMinutes(5)).orElseThrow();
        }
        // A snapshot of the store is shared for up to a second: wait for one taken after the locks.
        HttpResponse<String> state = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> get("/distlock/api/state?limit=500"), r -> r.body().contains("replica-2:"));
        assertThat(state.statusCode()).isEqualTo(200);
        assertThat(state.headers().firstValue("Cache-Control")).hasValueSatisfying(c -> assertThat(c).contains("no-store"));
        for (String owner : owners) {
            assertThat(state.body()).doesNotContain(owner).contains(owner.substring(0, owner.lastIndexOf(':') + 5) + "…");
        }
        DocumentContext json = JsonPath.parse(state.body());
        assertThat(json.read("$.mode", String.class)).isEqualTo("read-only");
        assertThat(json.read("$.admin", Boolean.class)).isFalse();
        assertThat(json.read("$.instance", String.class)).isEqualTo("replica-7");
        assertThat(json.read("$.store.reachable", Boolean.class)).isTrue();
        List<String> resources = json.read("$.locks.rows[*].resource");
        assertThat(resources).as("names come back as data, unchanged").contains(xss, "\"quoted\" & 'single'");
        List<String> instances = json.read("$.locks.rows[?(@.resource == '" + xss + "')].instance");
        assertThat(instances).containsExactly("replica-0");
    }

    @Test
    void locksAreFilteredOrderedAndPaged() throws Exception {
        String prefix = "page-" + UUID.randomUUID().toString().substring(0, 8) + ":";
        for (int i = 0; i < 25; i++) {
            repository.acquire(prefix + String.format("%02d", i), owner("replica-9"), Duration.ofMinutes(5))
                .orElseThrow();
        }
        DocumentContext page = JsonPath.parse(await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100)).until(() -> get("/distlock/api/state?q=" + prefix.toUpperCase()
                        + "&sort=resource&order=desc&offset=5&limit=10").body(), b -> b.contains("\"matched\":25")));
        assertThat(page.read("$.locks.matched", Integer.class)).isEqualTo(25);
        assertThat(page.read("$.locks.total", Integer.class)).isGreaterThanOrEqualTo(25);
        List<String> resources = page.read("$.locks.rows[*].resource");
        assertThat(resources).hasSize(10).first().isEqualTo(prefix + "19");
        assertThat(resources).last().isEqualTo(prefix + "10");
        DocumentContext byAge = JsonPath.parse(get("/distlock/api/state?q=" + prefix + "&limit=1").body());
        assertThat(byAge.read("$.locks.sort", String.class)).isEqualTo("age");
        assertThat(byAge.read("$.locks.order", String.class)).isEqualTo("desc");
        assertThat(byAge.read("$.locks.rows[0].resource", String.class)).as("held longest first")
            .isEqualTo(prefix + "00");
    }

    @Test
    void badParametersAreRefusedNamingTheParameter() throws Exception {
        String[][] wrong = { { "sort=owner", "sort must be one of age, expires, resource, token, got 'owner'" },
                { "order=up", "order must be asc or desc, got 'up'" },
                { "limit=0", "limit must be a whole number from 1 to 500, got '0'" },
                { "limit=5000", "limit must be a whole number from 1 to 500" },
                { "offset=-1", "offset must be a whole number from 0" },
                { "offset=ten", "offset must be a whole number from 0" },
                { "q=" + "x".repeat(300), "q must be at most 255 characters" } };
        for (String[] entry : wrong) {
            HttpResponse<String> response = get("/distlock/api/state?" + entry[0]);
            assertThat(response.statusCode()).as(entry[0]).isEqualTo(400);
            assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(JsonPath.parse(response.body()).read("$.detail", String.class)).as(entry[0]).contains(entry[1]);
        }
    }

    @Test
    void unknownPathsAnswer404() throws Exception {
        for (String path : List.of("/distlock/nope", "/distlock/api/nope", "/distlock/api/locks",
                "/distlock/dashboard.js.map", "/distlock/index.html", "/distlock/api/state/x", "/distlockx")) {
            assertThat(get(path).statusCode()).as(path).isEqualTo(404);
        }
    }

    @Test
    void theReadOnlyDashboardRefusesAReleaseAndTheLockStaysHeld() throws Exception {
        String resource = "held:" + UUID.randomUUID();
        LockRecord held = repository.acquire(resource, owner("replica-3"), Duration.ofMinutes(5)).orElseThrow();
        HttpResponse<String> response = post("/distlock/api/locks/release", "application/json",
                "{\"resource\": \"" + resource + "\", \"token\": " + held.token() + "}");
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(JsonPath.parse(response.body()).read("$.detail", String.class)).contains("read-only");
        assertThat(repository.find(resource)).contains(held);
        HttpResponse<String> state = get("/distlock/api/state");
        assertThat(state.body()).doesNotContain("\"forcedReleases\":1");
    }

    @Test
    void theUrlAndTheModeAreLoggedAtStartUp(CapturedOutput output) {
        // The extension captures from before the class's context starts, so its start-up lines are kept.
        assertThat(output.getAll()).containsPattern(
                "Lock dashboard at http://localhost:\\d+/distlock \\(read-only\\)");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {
    }
}
