package io.distlock.spring.dashboard;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The admin mode, accepted without Spring Security, over real HTTP: a forced release of a lock a running holder keeps
 * alive ends it, the next holder gets a larger token, the old holder is told its lease is lost, and the release is
 * logged at WARN with who asked, counted and shown among the events; full owner tokens are shown; a stale token, a
 * gone lock, a body that is not JSON, a bad body and a cross-site request change nothing.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = DashboardAdminEndToEndTests.TestApplication.class,
        properties = { "distributed-lock.dashboard.enabled=true", "distributed-lock.dashboard.admin-enabled=true",
                "distributed-lock.dashboard.allow-unprotected-admin=true",
                "spring.datasource.url=jdbc:h2:mem:dashboard-admin-e2e;DB_CLOSE_DELAY=-1" })
@ExtendWith(OutputCaptureExtension.class)
class DashboardAdminEndToEndTests {

    private final HttpClient http = HttpClient.newHttpClient();

    @Autowired
    private LockRepository repository;

    @Autowired
    private LockManager locks;

    @Autowired
    private MeterRegistry meters;

    @LocalServerPort
    private int port;

    private HttpResponse<String> release(String contentType, String body, String site) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/distlock/api/locks/release")).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (site != null) {
            request.header("Sec-Fetch-Site", site);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String body(String resource, long token) {
        return "{\"resource\": \"" + resource + "\", \"token\": " + token + "}";
    }

    private static String detail(HttpResponse<String> response) {
        return JsonPath.parse(response.body()).read("$.detail", String.class);
    }

    @Test
    void aForcedReleaseEndsAHeldLeaseTheNextHolderGetsALargerTokenAndTheOldHolderIsToldItIsLost(
            CapturedOutput output) throws Exception {
        String resource = "job:" + UUID.randomUUID();
        CountDownLatch lost = new CountDownLatch(1);
        AtomicReference<String> reason = new AtomicReference<>();
        Lease lease = locks.tryAcquire(resource, Duration.ofSeconds(3)).orElseThrow().onLost((l, why) -> {
            reason.set(why);
            lost.countDown();
        }).keepAlive(Duration.ofMinutes(1));
        DocumentContext before = JsonPath.parse(await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100)).until(() -> http.send(HttpRequest.newBuilder(URI.create(
                        "http://127.0.0.1:" + port + "/distlock/api/state?q=" + resource)).GET().build(),
                        HttpResponse.BodyHandlers.ofString()).body(), body -> body.contains(resource)));
        assertThat(before.read("$.admin", Boolean.class)).isTrue();
        assertThat(before.read("$.locks.rows[0].owner", String.class)).as("the admin sees full owners")
            .isEqualTo(lease.owner());
        assertThat(before.read("$.locks.rows[0].mine", Boolean.class)).isTrue();

        HttpResponse<String> response = release("application/json", body(resource, lease.token()), "same-origin");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(JsonPath.parse(response.body()).read("$.token", Long.class)).isEqualTo(lease.token());

        LockRecord next = repository.acquire(resource, "next-holder:" + UUID.randomUUID(), Duration.ofMinutes(1))
            .orElseThrow();
        assertThat(next.token()).isGreaterThan(lease.token());
        assertThat(lost.await(2, TimeUnit.SECONDS)).as("the old holder is told at its next renewal").isTrue();
        assertThat(reason.get()).contains("held by another owner");
        assertThat(output.getOut()).contains("Force-released the lock on '" + resource + "' (token " + lease.token()
                + ", owner ").contains("through the lock dashboard, asked by an anonymous user from 127.0.0.1");
        assertThat(meters.get(ForcedReleaseCounter.NAME).counter().count()).isGreaterThanOrEqualTo(1);
        DocumentContext after = JsonPath.parse(await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100)).until(() -> http.send(HttpRequest.newBuilder(URI.create(
                        "http://127.0.0.1:" + port + "/distlock/api/state")).GET().build(),
                        HttpResponse.BodyHandlers.ofString()).body(), body -> body.contains("lease-lost")));
        assertThat(after.read("$.forcedReleases", Long.class)).isGreaterThanOrEqualTo(1);
        assertThat(after.<java.util.List<String>>read("$.events.items[*].kind")).contains("forced-release",
                "lease-lost", "startup-warning");
    }

    @Test
    void aReleaseOfAStaleTokenOrAGoneLockChangesNothingAndSaysWhy() throws Exception {
        String resource = "job:" + UUID.randomUUID();
        LockRecord first = repository.acquire(resource, "a:" + UUID.randomUUID(), Duration.ofMinutes(5)).orElseThrow();
        repository.release(resource, first.owner());
        LockRecord second = repository.acquire(resource, "b:" + UUID.randomUUID(), Duration.ofMinutes(5)).orElseThrow();
        HttpResponse<String> stale = release("application/json", body(resource, first.token()), null);
        assertThat(stale.statusCode()).isEqualTo(409);
        assertThat(detail(stale)).contains("no longer held under token " + first.token(), "nothing was released");
        assertThat(repository.find(resource)).contains(second);
        HttpResponse<String> gone = release("application/json", body("job:" + UUID.randomUUID(), 1), null);
        assertThat(gone.statusCode()).isEqualTo(404);
        assertThat(detail(gone)).contains("No live lock on");
    }

    @Test
    void badReleaseRequestsAreRefusedSayingWhatIsWrong() throws Exception {
        String resource = "job:" + UUID.randomUUID();
        LockRecord held = repository.acquire(resource, "c:" + UUID.randomUUID(), Duration.ofMinutes(5)).orElseThrow();
        assertThat(release("text/plain", body(resource, held.token()), null).statusCode())
            .as("a cross-site form cannot send JSON").isEqualTo(415);
        HttpResponse<String> crossSite = release("application/json", body(resource, held.token()), "cross-site");
        assertThat(crossSite.statusCode()).isEqualTo(403);
        assertThat(detail(crossSite)).contains("must come from the dashboard's own page");
        HttpResponse<String> malformed = release("application/json", "{\"resource\": ", null);
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(detail(malformed)).contains("JSON object such as");
        HttpResponse<String> noToken = release("application/json", "{\"resource\": \"" + resource + "\"}", null);
        assertThat(noToken.statusCode()).isEqualTo(400);
        assertThat(detail(noToken)).contains("needs both 'resource' and 'token'");
        HttpResponse<String> badName = release("application/json", body(" ", 1), null);
        assertThat(badName.statusCode()).isEqualTo(400);
        assertThat(detail(badName)).contains("resource must not be blank");
        assertThat(repository.find(resource)).contains(held);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }
}
