package io.distlock.spring.web;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP lock API end to end over real HTTP, every row of the contract and every bad input, on each database.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = LockHttpContractTests.TestApplication.class,
        properties = "distributed-lock.http.enabled=true")
abstract class LockHttpContractTests {

    private final HttpClient http = HttpClient.newHttpClient();

    @Autowired
    private JsonMapper json;

    @LocalServerPort
    private int port;

    private static String resource() {
        return "job:" + UUID.randomUUID();
    }

    private static String owner() {
        return "client-" + UUID.randomUUID();
    }

    private URI uri(String resource, String suffix) {
        return URI.create("http://127.0.0.1:" + port + "/locks/"
                + URLEncoder.encode(resource, StandardCharsets.UTF_8).replace("+", "%20") + suffix);
    }

    private HttpResponse<String> post(String resource, String suffix, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(resource, suffix)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> acquire(String resource, String owner, String ttl) throws Exception {
        return post(resource, "", "{\"owner\": \"" + owner + "\", \"ttl\": \"" + ttl + "\"}");
    }

    private HttpResponse<String> renew(String resource, String owner, String ttl) throws Exception {
        return post(resource, "/renew", "{\"owner\": \"" + owner + "\", \"ttl\": \"" + ttl + "\"}");
    }

    private HttpResponse<String> get(String resource) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(resource, "")).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> delete(String resource, String query) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(resource, query)).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Sends a path as it is written, without encoding, so that a ';' reaches the server as a ';'. */
    private HttpResponse<String> raw(String method, String path, String body) throws Exception {
        HttpRequest.BodyPublisher publisher = body.isEmpty() ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body);
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/locks/" + path))
                .header("Content-Type", "application/json").method(method, publisher).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode body(HttpResponse<String> response) {
        return json.readTree(response.body());
    }

    private void assertProblem(HttpResponse<String> response, int status, String detailFragment) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        JsonNode problem = body(response);
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        assertThat(problem.get("type").asString()).startsWith("urn:distlock:problem:");
        assertThat(problem.get("title").asString()).isNotBlank();
        assertThat(problem.get("detail").asString()).contains(detailFragment);
    }

    @Test
    void acquireAFreeLockAnswersTheRecordWithInstantsInUtcAndAnIntegerToken() throws Exception {
        String resource = resource();
        String owner = owner();
        HttpResponse<String> response = acquire(resource, owner, "PT30S");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode lock = body(response);
        assertThat(lock.get("acquired").asBoolean()).isTrue();
        assertThat(lock.get("resource").asString()).isEqualTo(resource);
        assertThat(lock.get("owner").asString()).isEqualTo(owner);
        assertThat(lock.get("token").isIntegralNumber()).isTrue();
        assertThat(lock.get("acquiredAt").asString()).endsWith("Z");
        Instant acquiredAt = Instant.parse(lock.get("acquiredAt").asString());
        Instant expiresAt = Instant.parse(lock.get("expiresAt").asString());
        assertThat(Duration.between(acquiredAt, expiresAt)).isBetween(Duration.ofMillis(29_950), Duration.ofMillis(30_050));
    }

    @Test
    void acquireOfAHeldLockAnswersNotAcquiredAtOnce() throws Exception {
        String resource = resource();
        acquire(resource, owner(), "PT30S");
        HttpResponse<String> response = acquire(resource, owner(), "PT30S");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(body(response).get("acquired").asBoolean()).isFalse();
        assertThat(body(response).get("resource").asString()).isEqualTo(resource);
        assertThat(body(response).has("owner")).isFalse();
    }

    @Test
    void sameOwnerAcquiringAgainIsARenewalWithTheSameToken() throws Exception {
        String resource = resource();
        String owner = owner();
        JsonNode first = body(acquire(resource, owner, "PT10S"));
        JsonNode again = body(acquire(resource, owner, "PT50S"));
        assertThat(again.get("acquired").asBoolean()).isTrue();
        assertThat(again.get("token").asLong()).isEqualTo(first.get("token").asLong());
        assertThat(Instant.parse(again.get("expiresAt").asString()))
                .isAfter(Instant.parse(first.get("expiresAt").asString()));
    }

    @Test
    void getAnswersTheLiveRecordAnd404WhenAbsentOrExpired() throws Exception {
        String resource = "report:monthly 2026-05 \"final\"";
        String owner = owner();
        delete(resource, "?owner=" + owner);
        acquire(resource, owner, "PT0.3S");
        HttpResponse<String> live = get(resource);
        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(body(live).get("resource").asString()).isEqualTo(resource);
        assertThat(body(live).has("acquired")).isFalse();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> get(resource).statusCode() == 404);
        assertProblem(get(resource), 404, resource);
        assertProblem(get(resource()), 404, "No live lock");
    }

    @Test
    void releaseAnswers204ThenNotFoundAnd403ForAnotherOwner() throws Exception {
        String resource = resource();
        String owner = owner();
        acquire(resource, owner, "PT30S");
        assertProblem(delete(resource, "?owner=" + owner()), 403, "held by another owner");
        assertThat(get(resource).statusCode()).isEqualTo(200);
        assertThat(delete(resource, "?owner=" + owner).statusCode()).isEqualTo(204);
        assertProblem(delete(resource, "?owner=" + owner), 404, resource);
        assertThat(get(resource).statusCode()).isEqualTo(404);
    }

    @Test
    void renewExtendsTheOwnersLeaseAndConflictsOtherwise() throws Exception {
        String resource = resource();
        String owner = owner();
        JsonNode first = body(acquire(resource, owner, "PT10S"));
        HttpResponse<String> renewed = renew(resource, owner, "PT60S");
        assertThat(renewed.statusCode()).isEqualTo(200);
        assertThat(body(renewed).get("token").asLong()).isEqualTo(first.get("token").asLong());
        assertThat(Instant.parse(body(renewed).get("expiresAt").asString()))
                .isAfter(Instant.parse(first.get("expiresAt").asString()).plusSeconds(40));
        assertProblem(renew(resource, owner(), "PT60S"), 409, "held by another owner");
        String expiring = resource();
        acquire(expiring, owner, "PT0.2S");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> get(expiring).statusCode() == 404);
        assertProblem(renew(expiring, owner, "PT60S"), 409, "expired");
    }

    @Test
    void aTtlTakesTheFormsOfTheAnnotationIsoOrANumberWithAUnit() throws Exception {
        for (String ttl : List.of("5s", "PT5S", "5000ms")) {
            String resource = resource();
            HttpResponse<String> acquired = acquire(resource, owner(), ttl);
            assertThat(acquired.statusCode()).as(ttl).isEqualTo(200);
            JsonNode lock = body(acquired);
            assertThat(Duration.between(Instant.parse(lock.get("acquiredAt").asString()),
                    Instant.parse(lock.get("expiresAt").asString()))).as(ttl).isEqualTo(Duration.ofSeconds(5));
        }
    }

    @Test
    void badInputAnswers400AndChangesNothing() throws Exception {
        String resource = resource();
        String owner = owner();
        assertProblem(acquire(resource, owner, "soon"), 400, "ttl 'soon' is not a duration: use ISO-8601 such as PT30S, "
                + "or a number with a unit such as 30s or 500ms");
        assertProblem(acquire(resource, owner, "30"), 400, "ttl '30' has no unit: a number alone is not read as "
                + "milliseconds");
        assertProblem(acquire(resource, owner, "PT0S"), 400, "ttl must be at least");
        assertProblem(acquire(resource, owner, "-PT5S"), 400, "ttl must be at least");
        assertProblem(acquire(resource, owner, "PT2H"), 400, "ttl must be at most PT1H");
        assertProblem(post(resource, "", "{\"ttl\": \"PT30S\"}"), 400, "owner must not be null");
        assertProblem(acquire(resource, "  ", "PT30S"), 400, "owner must not be blank");
        assertProblem(acquire(resource, "o".repeat(256), "PT30S"), 400, "owner must be at most 255 characters");
        assertProblem(acquire("r".repeat(256), owner, "PT30S"), 400, "resource must be at most 255 characters");
        assertProblem(acquire("job\u000742", owner, "PT30S"), 400, "control characters");
        assertProblem(post(resource, "", "{\"owner\": "), 400, "JSON object");
        assertProblem(post(resource, "", "{\"owner\": \"x\", \"ttl\": \"PT1S\""), 400, "JSON object");
        assertProblem(post(resource, "/renew", "{\"owner\": \"x\", \"ttl\": \"later\"}"), 400, "'later'");
        assertProblem(http.send(HttpRequest.newBuilder(uri(resource, "")).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("owner=x")).build(), HttpResponse.BodyHandlers.ofString()),
                415, "application/json");
        assertProblem(delete(resource, ""), 400, "'owner' is required");
        assertProblem(delete(resource, "?owner="), 400, "owner must not be blank");
        assertThat(get(resource).statusCode()).isEqualTo(404);
    }

    @Test
    void semicolonInAResourceIsRefusedUnencodedAndStoredVerbatimWhenEncoded() throws Exception {
        String job = resource();
        String owner = owner();
        String lease = "{\"owner\": \"" + owner + "\", \"ttl\": \"PT30S\"}";
        assertProblem(raw("POST", job + ";eu", lease), 400, "contains ';', which Spring MVC reads as the start of "
                + "matrix parameters and drops, so the call would act on '" + job + "' instead: URL-encode ';' in "
                + "resource names as %3B");
        assertProblem(raw("POST", job + ";us", lease), 400, "';'");
        assertProblem(raw("GET", job + ";eu", ""), 400, "';'");
        assertProblem(raw("POST", job + ";eu/renew", lease), 400, "';'");
        assertProblem(raw("DELETE", job + ";eu?owner=" + owner, ""), 400, "';'");
        assertThat(get(job).statusCode()).as("nothing was locked under the truncated name").isEqualTo(404);

        String eu = job + ";eu";
        String us = job + ";us";
        assertThat(uri(eu, "").toString()).contains("%3Beu");
        JsonNode euLock = body(acquire(eu, owner, "PT30S"));
        assertThat(euLock.get("acquired").asBoolean()).isTrue();
        assertThat(euLock.get("resource").asString()).isEqualTo(eu);
        JsonNode usLock = body(acquire(us, owner(), "PT30S"));
        assertThat(usLock.get("acquired").asBoolean()).as("a lock of its own, not job's").isTrue();
        assertThat(usLock.get("resource").asString()).isEqualTo(us);
        assertThat(body(get(eu)).get("owner").asString()).isEqualTo(owner);
        assertThat(get(job).statusCode()).isEqualTo(404);
        assertThat(renew(eu, owner, "PT60S").statusCode()).isEqualTo(200);
        assertThat(delete(eu, "?owner=" + owner).statusCode()).isEqualTo(204);
        assertThat(get(eu).statusCode()).isEqualTo(404);
        assertThat(get(us).statusCode()).isEqualTo(200);
    }

    @Test
    void thirtyTwoClientsRacingForAFreeLockGiveExactlyOneAcquired() throws Exception {
        String resource = resource();
        ExecutorService pool = Executors.newFixedThreadPool(32);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                results.add(pool.submit(() -> {
                    go.await();
                    HttpResponse<String> response = acquire(resource, owner(), "PT30S");
                    assertThat(response.statusCode()).isEqualTo(200);
                    return body(response).get("acquired").asBoolean();
                }));
            }
            go.countDown();
            int acquired = 0;
            for (Future<Boolean> result : results) {
                acquired += result.get(60, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(acquired).isEqualTo(1);
        }
        finally {
            pool.shutdownNow();
        }
    }

    @Test
    void tokensStrictlyIncreaseAcrossReleaseAndReacquireByAlternatingOwners() throws Exception {
        String resource = resource();
        String[] owners = {owner(), owner()};
        long previous = 0;
        for (int i = 0; i < 10; i++) {
            String owner = owners[i % 2];
            JsonNode lock = body(acquire(resource, owner, "PT30S"));
            assertThat(lock.get("acquired").asBoolean()).isTrue();
            assertThat(lock.get("token").asLong()).isGreaterThan(previous);
            previous = lock.get("token").asLong();
            assertThat(delete(resource, "?owner=" + owner).statusCode()).isEqualTo(204);
        }
    }

    /** The smallest application serving the lock API. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {
    }
}
