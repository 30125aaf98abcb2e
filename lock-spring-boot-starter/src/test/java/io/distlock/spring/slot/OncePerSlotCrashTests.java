package io.distlock.spring.slot;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.distlock.core.CrashPolicy;
import io.distlock.core.LockManager;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.SlotOutcome;
import io.distlock.core.SlotRequest;
import io.distlock.core.SlotRun;
import io.distlock.core.SlotRunOutcome;
import io.distlock.core.SlotStore;
import io.distlock.jdbc.LockTableName;
import io.distlock.testsupport.TestDatabase;
import org.h2.tools.Server;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A replica in a JVM of its own claims a slot of an {@code @OncePerSlot} job and is killed with SIGKILL in the middle
 * of its run, its lease (2 s TTL) left to expire. Another replica, in the test's JVM with its scheduler's clock one
 * second behind, runs the same job on the same database: H2 (the test JVM's in-memory database, served to the other
 * JVM by an H2 TCP server on a free port, accepting connections from this host only), PostgreSQL or MariaDB.
 * At most once, the crashed slot is not run again: the next slot's claim records it {@code CRASHED} and warns, and
 * asking for the slot again finds it claimed. At least once, the other replica, which fired for the same slot and
 * waited for the job's lock, runs that slot again exactly once, after the killed run's lease expired.
 */
@ExtendWith(OutputCaptureExtension.class)
class OncePerSlotCrashTests {

    private static final String TTL = "PT2S";

    private static final Pattern STARTED = Pattern.compile(
            "^" + CrashingReplica.STARTED + " slot=(\\S+) run=(\\d+) token=(\\d+) owner=(\\S+)$");

    private final List<String> childOutput = new CopyOnWriteArrayList<>();

    private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

    private @Nullable Process child;

    private @Nullable Server h2Server;

    private @Nullable TestDatabase database;

    private @Nullable LockTableName table;

    private String job;

    @BeforeEach
    void clearRuns() {
        CrashingReplica.RUNS.clear();
        job = "crash-" + UUID.randomUUID();
    }

    @AfterEach
    void stopEverything() {
        if (child != null && child.isAlive()) {
            child.destroyForcibly();
        }
        contexts.forEach(ConfigurableApplicationContext::close);
        if (h2Server != null) {
            h2Server.stop();
        }
        if (database != null && table != null) {
            database.dropLockTable(table);
        }
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void atMostOnceTheCrashedSlotIsNotRunAgainAndIsRecordedCrashedAndToldAtTheNextClaim(TestDatabase database,
            CapturedOutput output) throws Exception {
        Crash crash = crashMidRun(database, CrashPolicy.AT_MOST_ONCE);
        Instant slot = crash.slot();
        LockRepository repository = contexts.get(0).getBean(LockRepository.class);

        // The other replica's next claim finds the killed run unfinished.
        await().atMost(Duration.ofSeconds(30)).until(() -> SlotStore.of(repository).recentSlotRuns(job, 10).stream()
                .anyMatch(run -> run.slot().equals(slot) && run.outcome() == SlotRunOutcome.CRASHED));
        assertThat(SlotStore.of(repository).recentSlotRuns(job, 10)).filteredOn(run -> run.slot().equals(slot))
                .singleElement()
                .satisfies(run -> {
                    assertThat(run.run()).isOne();
                    assertThat(run.token()).isEqualTo(crash.token());
                    assertThat(run.owner()).isEqualTo(crash.owner());
                    assertThat(run.finishedAt()).isNull();
                });
        // The claim commits the record before the claiming replica logs the warning.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(output.getOut()).contains("Slot " + slot
                + " of job '" + job + "' never finished: its holder (token " + crash.token() + ") stopped or lost its "
                + "lease mid-run (a crash, a pause, or a run longer than maxHold); recorded as crashed and not run "
                + "again"));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(CrashingReplica.RUNS)
                .as("runs of the other replica").anyMatch(run -> run.slot().isAfter(slot)));
        assertThat(CrashingReplica.RUNS).noneMatch(run -> run.slot().equals(slot));

        // Asked for that slot again, after its lease expired, a replica finds it claimed and does not run it.
        AtomicBoolean ran = new AtomicBoolean();
        SlotOutcome<Object> again = contexts.get(0).getBean(LockManager.class).runOncePerSlot(
                SlotRequest.of(job, slot, Duration.parse(TTL)).withMaxWait(Duration.ofSeconds(20)), lease -> {
                    ran.set(true);
                    return null;
                });
        assertThat(again.status()).isEqualTo(SlotOutcome.Status.ALREADY_CLAIMED);
        assertThat(ran).isFalse();
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void atLeastOnceAnotherReplicaRunsTheCrashedSlotAgainExactlyOnceAfterItsLeaseExpired(TestDatabase database,
            CapturedOutput output) throws Exception {
        Crash crash = crashMidRun(database, CrashPolicy.AT_LEAST_ONCE);
        Instant slot = crash.slot();
        LockRepository repository = contexts.get(0).getBean(LockRepository.class);

        // The other replica fired for the same slot a second after the killed one, found the job's lock held, and
        // checks the slot again one lease length later, until the killed run's lease has run out.
        await().atMost(Duration.ofSeconds(30)).until(() -> CrashingReplica.RUNS.stream()
                .anyMatch(run -> run.slot().equals(slot)));
        assertThat(CrashingReplica.RUNS).filteredOn(run -> run.slot().equals(slot)).singleElement()
                .satisfies(run -> {
                    assertThat(run.run()).isEqualTo(2);
                    assertThat(run.token()).isGreaterThan(crash.token());
                });
        await().atMost(Duration.ofSeconds(10)).until(() -> SlotStore.of(repository).recentSlotRuns(job, 10).stream()
                .anyMatch(run -> run.slot().equals(slot) && run.outcome() == SlotRunOutcome.SUCCEEDED));
        List<SlotRun> runs = SlotStore.of(repository).recentSlotRuns(job, 10).stream()
                .filter(run -> run.slot().equals(slot))
                .toList();
        assertThat(runs).extracting(SlotRun::run, SlotRun::outcome, SlotRun::token).containsExactly(
                org.assertj.core.groups.Tuple.tuple(2, SlotRunOutcome.SUCCEEDED, CrashingReplica.RUNS.stream()
                        .filter(run -> run.slot().equals(slot)).findFirst().orElseThrow().token()),
                org.assertj.core.groups.Tuple.tuple(1, SlotRunOutcome.CRASHED, crash.token()));
        assertThat(runs.get(0).startedAt()).as("the re-run started after the killed run's lease expired")
                .isAfterOrEqualTo(crash.leaseExpiresAt());
        assertThat(output.getOut()).contains("Running slot " + slot + " of job '" + job + "' again: its first run "
                + "(token " + crash.token() + ") never finished; its holder stopped or lost its lease mid-run");

        // Exactly once: asked for the slot again, a replica finds it claimed.
        AtomicBoolean ran = new AtomicBoolean();
        SlotOutcome<Object> third = contexts.get(0).getBean(LockManager.class).runOncePerSlot(
                SlotRequest.of(job, slot, Duration.parse(TTL)).withOnCrash(CrashPolicy.AT_LEAST_ONCE)
                        .withMaxWait(Duration.ofSeconds(20)), lease -> {
                    ran.set(true);
                    return null;
                });
        assertThat(third.status()).isEqualTo(SlotOutcome.Status.ALREADY_CLAIMED);
        assertThat(ran).isFalse();
        assertThat(CrashingReplica.RUNS).filteredOn(run -> run.slot().equals(slot)).hasSize(1);
    }

    /**
     * Starts the other replica in this JVM, then the replica to kill in a JVM of its own; waits until the latter
     * runs a slot, reads its lease, kills it with SIGKILL, and reads its lease again: the expiry it was left with.
     */
    private Crash crashMidRun(TestDatabase database, CrashPolicy policy) throws Exception {
        database.assumeAvailable();
        this.database = database;
        this.table = database.createLockTable();
        String childUrl = database.url();
        if (database == TestDatabase.H2) {
            int port = freePort();
            h2Server = Server.createTcpServer("-tcpPort", Integer.toString(port), "-tcpDaemon").start();
            childUrl = database.remoteUrl(port);
        }
        Map<String, String> common = Map.of("spring.datasource.username", database.user(),
                "spring.datasource.password", database.password(), "distributed-lock.table-name", table.value(),
                "distributed-lock.jdbc.initialize-schema", "never", "crash.job", job, "crash.ttl", TTL,
                "crash.policy", policy.name());

        List<String> survivor = new ArrayList<>(List.of("spring.datasource.url=" + database.url(),
                "distributed-lock.owner-prefix=survivor", "crash.clock-offset=-PT1S"));
        common.forEach((key, value) -> survivor.add(key + "=" + value));
        contexts.add(new SpringApplicationBuilder(CrashingReplica.ReplicaApplication.class)
            .web(WebApplicationType.NONE)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .properties(survivor.toArray(String[]::new))
            .run());
        LockRepository repository = contexts.get(0).getBean(LockRepository.class);

        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                CrashingReplica.class.getName(), "--spring.datasource.url=" + childUrl,
                "--distributed-lock.owner-prefix=doomed", "--crash.block=true", "--spring.main.banner-mode=off"));
        common.forEach((key, value) -> command.add("--" + key + "=" + value));
        child = new ProcessBuilder(command).redirectErrorStream(true).start();
        CompletableFuture<Matcher> started = new CompletableFuture<>();
        Thread reader = new Thread(() -> readChild(child, started), "crashing-replica-output");
        reader.setDaemon(true);
        reader.start();

        Matcher line = started.get(90, TimeUnit.SECONDS);
        Instant slot = Instant.parse(line.group(1));
        long token = Long.parseLong(line.group(3));
        String owner = line.group(4);
        assertThat(line.group(2)).isEqualTo("1");
        assertThat(repository.find(job)).map(LockRecord::owner).as(String.join("\n", childOutput)).contains(owner);

        child.destroyForcibly();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
        LockRecord left = repository.find(job).orElseThrow();
        assertThat(left.owner()).as("the lease the killed run left behind").isEqualTo(owner);
        assertThat(left.token()).isEqualTo(token);
        return new Crash(slot, token, owner, left.expiresAt());
    }

    private void readChild(Process process, CompletableFuture<Matcher> started) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                childOutput.add(line);
                Matcher matcher = STARTED.matcher(line);
                if (matcher.matches()) {
                    started.complete(matcher);
                }
            }
        }
        catch (IOException ex) {
            started.completeExceptionally(ex);
        }
        started.completeExceptionally(new IllegalStateException("The crashing replica ended before it ran a slot:\n"
                + String.join("\n", childOutput)));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /**
     * The killed run.
     *
     * @param slot the slot it ran for
     * @param token its lease's fencing token
     * @param owner its lease's owner
     * @param leaseExpiresAt when its lease expired, database time
     */
    private record Crash(Instant slot, long token, String owner, Instant leaseExpiresAt) {
    }
}
