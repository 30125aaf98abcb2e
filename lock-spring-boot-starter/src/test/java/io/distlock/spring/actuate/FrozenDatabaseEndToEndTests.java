package io.distlock.spring.actuate;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.spring.DistributedLock;
import io.distlock.testsupport.PrivatePostgres;
import io.distlock.testsupport.TestDatabase;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A frozen database: a PostgreSQL server of the test's own whose processes are all stopped ({@code SIGSTOP}), so that
 * its connections stay open and nothing answers, neither statements nor cancel requests — what a hung host or a
 * network path that swallows packets looks like. Health still answers within a second saying DOWN with the cause,
 * {@code /actuator/locks} answers 503 with the reason within the library's bound (the wait for a connection plus the
 * network timeout), and a guarded method gives up within the same bound. HikariCP's check of a connection that
 * idled, which runs in the caller's thread, is kept within the statement timeout ({@code validation-timeout}); with
 * its default 5 s per connection, {@code /actuator/locks} took 10 s. Runs only with {@code -Ppg-crash}.
 */
@Tag("pg-crash")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = FrozenDatabaseEndToEndTests.TestApplication.class,
        properties = { "distributed-lock.jdbc.statement-timeout=1s",
                "distributed-lock.jdbc.initialize-schema=always",
                "spring.datasource.hikari.maximum-pool-size=6",
                // HikariCP checks a connection that idled before handing it out, for up to this long per connection,
                // in the caller's thread: kept within the statement timeout, as docs/guarantees.md advises.
                "spring.datasource.hikari.validation-timeout=1000",
                "management.endpoints.web.exposure.include=health,locks",
                "management.endpoint.health.show-details=always" })
class FrozenDatabaseEndToEndTests {

    private static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(1);

    private static final Duration BOUND = STATEMENT_TIMEOUT.plus(JdbcLockRepository.networkTimeout(STATEMENT_TIMEOUT));

    private static final Duration VALIDATION_TIMEOUT = Duration.ofSeconds(1);

    /** Scheduling on a busy machine. */
    private static final Duration MARGIN = Duration.ofMillis(700);

    private static @Nullable PrivatePostgres cluster;

    private final HttpClient http = HttpClient.newHttpClient();

    @Autowired
    private JsonMapper json;

    @Autowired
    private Worker worker;

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) throws Exception {
        Path bin = PrivatePostgres.binaries();
        if (bin == null) {
            String problem = "no PostgreSQL initdb found for a private cluster";
            if (TestDatabase.POSTGRESQL.required()) {
                Assertions.fail(problem + " but DISTLOCK_TEST_REQUIRE demands PostgreSQL");
            }
            Assumptions.abort(problem + ": skipped");
        }
        PrivatePostgres started = PrivatePostgres.start(bin);
        cluster = started;
        registry.add("spring.datasource.url", started::url);
        registry.add("spring.datasource.username", () -> "postgres");
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void healthSaysDownWithinASecondAndTheLocksEndpointAndAGuardedMethodGiveUpWithinTheBound() throws Exception {
        assertThat(get("/actuator/health/distributedLock").statusCode()).as("up before the freeze").isEqualTo(200);
        assertThat(worker.work()).isEqualTo("ran");
        // Long enough for HikariCP to check its idle connections before it hands them out.
        CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(600, TimeUnit.MILLISECONDS)).join();
        try (PrivatePostgres.Frozen frozen = cluster.freeze()) {
            CompletableFuture<Duration> guarded = CompletableFuture.supplyAsync(() -> {
                long start = System.nanoTime();
                try {
                    worker.work();
                }
                catch (RuntimeException expected) {
                    // The store did not answer: the method did not run.
                }
                return Duration.ofNanos(System.nanoTime() - start);
            });
            for (int check = 0; check < 3; check++) {
                long start = System.nanoTime();
                HttpResponse<String> health = get("/actuator/health/distributedLock");
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                System.out.printf("FROZEN health check %d: %d ms, %d %s%n", check, took.toMillis(),
                        health.statusCode(), health.body());
                assertThat(took).as("health check %d", check).isLessThan(Duration.ofSeconds(1).plus(MARGIN));
                assertThat(health.statusCode()).isEqualTo(503);
                JsonNode lock = json.readTree(health.body());
                assertThat(lock.get("status").asString()).isEqualTo("DOWN");
                assertThat(lock.get("details").get("error").asString()).as("the cause").isNotBlank();
            }
            long start = System.nanoTime();
            HttpResponse<String> locks = get("/actuator/locks");
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            System.out.printf("FROZEN GET /actuator/locks: %d ms, %d %s%n", took.toMillis(), locks.statusCode(),
                    locks.body());
            assertThat(took).as("/actuator/locks").isLessThan(BOUND.plus(MARGIN));
            assertThat(locks.statusCode()).isEqualTo(503);
            assertThat(json.readTree(locks.body()).get("message").asString()).contains("did not answer")
                .doesNotEndWith("null");
            Duration guardedTook = guarded.get(30, TimeUnit.SECONDS);
            System.out.printf("FROZEN guarded method: %d ms%n", guardedTook.toMillis());
            // Its acquire may take a connection that idled: HikariCP checks each idle one it tries before it sees the
            // interrupt that ends the wait, each check for up to validation-timeout (docs/guarantees.md, limits).
            assertThat(guardedTook).as("the guarded method's acquire")
                    .isLessThan(BOUND.plus(VALIDATION_TIMEOUT).plus(MARGIN));
            assertThat(worker.runs()).as("the guarded method ran only before the freeze").isEqualTo(1);
        }
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A guarded method that counts its runs. */
    static class Worker {

        private final java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();

        @DistributedLock(resource = "frozen")
        public @Nullable Object work() {
            runs.incrementAndGet();
            return "ran";
        }

        int runs() {
            return runs.get();
        }
    }

    /** An application with Actuator on the private PostgreSQL. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        Worker worker() {
            return new Worker();
        }
    }
}
