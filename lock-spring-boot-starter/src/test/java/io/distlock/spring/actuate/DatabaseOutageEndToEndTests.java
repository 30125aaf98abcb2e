package io.distlock.spring.actuate;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.core.CurrentLease;
import io.distlock.core.Lease;
import io.distlock.core.LockLostException;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.OnLocked;
import org.h2.tools.Server;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A real outage: the application's H2 database is served over TCP, through Spring Boot's HikariCP pool with its
 * default 30 s connection timeout, and the server is stopped. The library's own bounds still hold: health answers
 * within a second and says DOWN with the cause, {@code /actuator/locks} answers 503 with the reason within the
 * statement timeout, and a guarded method is told of its loss within one renewal interval of its lease running out.
 * The first test stops the server, and the database stays down for the others (H2 does not reopen a database its
 * stopped server closed in the same JVM).
 */
@ExtendWith(OutputCaptureExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = DatabaseOutageEndToEndTests.TestApplication.class,
        properties = { "distributed-lock.jdbc.statement-timeout=1s",
                "distributed-lock.jdbc.initialize-schema=always",
                "distributed-lock.interrupt-on-loss=true",
                "management.endpoints.web.exposure.include=health,locks",
                "management.endpoint.health.show-details=always" })
class DatabaseOutageEndToEndTests {

    private static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(1);

    private static final Duration TTL = Duration.ofSeconds(3);

    /** Scheduling on a busy machine. */
    private static final Duration MARGIN = Duration.ofMillis(700);

    private static final int PORT = freePort();

    private static Server server;

    /** Listens where the database was and never answers: a host that is there but whose database is not. */
    private static ServerSocket silent;

    /** Where the server keeps the database, in a file, so that it outlives the server being stopped. */
    private static java.nio.file.Path baseDir;

    private final HttpClient http = HttpClient.newHttpClient();

    @Autowired
    private JsonMapper json;

    @Autowired
    private Worker worker;

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) throws SQLException, IOException {
        silent = null;
        baseDir = java.nio.file.Files.createTempDirectory("distlock-outage");
        server = startServer();
        registry.add("spring.datasource.username", () -> "sa");
        registry.add("spring.datasource.url", () -> "jdbc:h2:tcp://127.0.0.1:" + PORT + "/outage");
    }

    private static Server startServer() throws SQLException {
        return Server.createTcpServer("-tcpPort", Integer.toString(PORT), "-tcpDaemon", "-ifNotExists", "-baseDir",
                baseDir.toString()).start();
    }

    @AfterAll
    static void stopServer() throws IOException {
        server.stop();
        if (silent != null) {
            silent.close();
        }
        org.springframework.util.FileSystemUtils.deleteRecursively(baseDir);
    }

    /**
     * The outage: the database server stops, which breaks the pool's connections, and its port then accepts
     * connections that never answer, so that the pool waits for new ones (its 30 s connectionTimeout) instead of being
     * refused at once.
     */
    private static synchronized void outage() throws IOException {
        if (silent != null) {
            return;
        }
        server.stop();
        silent = new ServerSocket(PORT);
        Thread acceptor = new Thread(() -> {
            java.util.List<java.net.Socket> held = new java.util.ArrayList<>();
            while (!silent.isClosed()) {
                try {
                    held.add(silent.accept());
                }
                catch (IOException ex) {
                    return;
                }
            }
        }, "silent-database");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @Test
    @Order(2)
    void healthAnswersWithinASecondSayingDownWithTheCauseAndTheLocksEndpointAnswers503WithinTheBound()
            throws Exception {
        // Spring Boot's own db indicator waits for the pool (its 30 s connectionTimeout): the lock's is asked alone.
        outage();
        for (int check = 0; check < 2; check++) {
            long start = System.nanoTime();
            HttpResponse<String> health = get("/actuator/health/distributedLock");
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(took).as("health check %d", check).isLessThan(Duration.ofSeconds(1).plus(MARGIN));
            assertThat(health.statusCode()).isEqualTo(503);
            JsonNode lock = json.readTree(health.body());
            assertThat(lock.get("status").asString()).isEqualTo("DOWN");
            assertThat(lock.get("details").get("error").asString()).as("the cause").isNotBlank();
        }
        long start = System.nanoTime();
        HttpResponse<String> locks = get("/actuator/locks");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("within the statement timeout")
                .isLessThan(STATEMENT_TIMEOUT.plus(MARGIN));
        assertThat(locks.statusCode()).isEqualTo(503);
        assertThat(json.readTree(locks.body()).get("message").asString()).contains("did not answer");
    }

    @Test
    @Order(1)
    void aGuardedMethodIsToldOfItsLossWithinOneRenewalIntervalOfItsLeaseRunningOut() throws Exception {
        CompletableFuture<Object> call = CompletableFuture.supplyAsync(worker::workUntilInterrupted);
        assertThat(worker.running().await(10, TimeUnit.SECONDS)).as("the guarded method runs").isTrue();
        outage();
        assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
                .isThrownBy(() -> call.get(TTL.multipliedBy(4).toMillis(), TimeUnit.MILLISECONDS))
                .withCauseInstanceOf(LockLostException.class);
        Lease lease = worker.lease().get();
        Instant ranOut = lease.expiresAt();
        Duration interval = TTL.dividedBy(3);
        assertThat(worker.told().get()).as("told of the loss").isNotNull()
                .isBefore(ranOut.plus(interval).plus(MARGIN));
    }

    @Test
    @Order(3)
    void aScheduledMethodWhoseLockStoreIsDownIsSkippedWithOneWarnLineNamingTheLockAndTheCause(CapturedOutput output)
            throws Exception {
        outage();
        int before = output.getAll().length();
        for (int run = 0; run < 3; run++) {
            long start = System.nanoTime();
            assertThat(worker.tick()).as("skipped").isNull();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("within the bound")
                    .isLessThan(STATEMENT_TIMEOUT.plus(MARGIN));
        }
        String logged = output.getAll().substring(before);
        assertThat(logged.lines().filter(line -> line.contains(" WARN ") && line.contains("tick()")))
            .as("one WARN line for three failed runs").hasSize(1)
            .allSatisfy(line -> assertThat(line).contains("the lock store did not answer for the lock on 'tick'"));
        assertThat(logged).as("no statement text, no ERROR").doesNotContain("MERGE").doesNotContain(" ERROR ");
        assertThat(worker.ticks()).as("the method did not run").isZero();
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** A guarded method that works until interrupt-on-loss interrupts it, and records when that was. */
    static class Worker {

        private final CountDownLatch running = new CountDownLatch(1);

        private final AtomicReference<Lease> lease = new AtomicReference<>();

        private final AtomicReference<Instant> told = new AtomicReference<>();

        private final java.util.concurrent.atomic.AtomicInteger ticks = new java.util.concurrent.atomic.AtomicInteger();

        public CountDownLatch running() {
            return running;
        }

        public AtomicReference<Lease> lease() {
            return lease;
        }

        public AtomicReference<Instant> told() {
            return told;
        }

        public int ticks() {
            return ticks.get();
        }

        @Scheduled(fixedRate = 3_600_000, initialDelay = 3_600_000)
        @DistributedLock(resource = "tick")
        public @Nullable Object tick() {
            ticks.incrementAndGet();
            return "ran";
        }

        @DistributedLock(resource = "outage", ttl = "PT3S", onLocked = OnLocked.THROW)
        public Object workUntilInterrupted() {
            lease.set(CurrentLease.require());
            running.countDown();
            try {
                TimeUnit.MINUTES.sleep(1);
            }
            catch (InterruptedException ex) {
                told.set(Instant.now());
            }
            return "done";
        }
    }

    /** An application with Actuator on a database served over TCP. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        Worker worker() {
            return new Worker();
        }
    }
}
