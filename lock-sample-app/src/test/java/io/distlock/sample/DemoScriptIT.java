package io.distlock.sample;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs {@code ./demo.sh --replicas 3 --seconds 40}, on H2, on H2 again ahead-of-time processed ({@code --aot}) and with
 * {@code --db redis} on the local Redis server, and
 * checks what it shows: the jobs claimed per slot (ledger, report, per-slot) run each slot at most once although the
 * replicas' scheduler clocks are 3 s apart, while the same job guarded by the lock alone runs slots more than once; one
 * SUMMARY line per job whose figures agree with the lines printed; a takeover within one TTL plus one period after the
 * kill, at least two replicas executing, a fenced write after the pause, and {@code DEMO OK}. Takes about a minute
 * each, so it runs only with {@code -Pdemo-test}, after the application jar is built. The Redis run is skipped when no
 * Redis server answers at 127.0.0.1:6379, unless {@code DISTLOCK_TEST_REQUIRE} names {@code redis}.
 */
class DemoScriptIT {

    private static final Pattern EXECUTED = Pattern.compile(
            "^EXECUTED job=(\\S+) slot=(\\S+) replica=(\\S+) token=(\\d+)$");

    private static final Pattern SKIPPED = Pattern.compile(
            "^SKIPPED job=(\\S+) slot=(\\S+) replica=(\\S+) reason=(locked|already-claimed|too-early)$");

    private static final Pattern SUMMARY = Pattern.compile(
            "^SUMMARY job=(\\S+) slots=(\\d+) executions=(\\d+) duplicates=(\\d+) missed=(\\d+)$");

    /** The demo's jobs and their periods in seconds. */
    private static final Map<String, Integer> PERIODS = Map.of("ledger", 5, "report", 15, "lock-only", 4,
            "per-slot", 4);

    @Test
    void demoShowsOneExecutionPerSlotDespiteSkewATakeoverAndAFencedWrite() throws Exception {
        runAndCheck();
    }

    @Test
    void theAheadOfTimeProcessedSampleShowsTheSame() throws Exception {
        String all = runAndCheck("--aot");
        assertThat(all).contains("ahead-of-time processed (spring.aot.enabled)");
        assertThat(all.split("Starting AOT-processed SampleApplication", -1)).as("every replica ran AOT-processed")
                .hasSize(4);
    }

    @Test
    void theDemoOnTheRedisStoreShowsTheSame() throws Exception {
        boolean reachable;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", 6379), 1000);
            reachable = true;
        }
        catch (IOException ex) {
            reachable = false;
        }
        String require = String.valueOf(System.getenv("DISTLOCK_TEST_REQUIRE")).toLowerCase(Locale.ROOT);
        if (!reachable) {
            assertThat(require.contains("redis") || require.contains("all"))
                    .as("Redis at 127.0.0.1:6379 unreachable but DISTLOCK_TEST_REQUIRE demands it").isFalse();
        }
        assumeTrue(reachable, "no Redis server at 127.0.0.1:6379: the Redis demo is skipped");
        String all = runAndCheck("--db", "redis");
        assertThat(all).contains("Starting 3 replicas on redis at 127.0.0.1:6379");
    }

    private String runAndCheck(String... options) throws Exception {
        Path root = Path.of("..").toAbsolutePath().normalize();
        Path log = Files.createTempFile("demo", ".log");
        List<String> command = new ArrayList<>(List.of("bash", "demo.sh", "--replicas", "3", "--seconds", "40"));
        command.addAll(List.of(options));
        Process demo = new ProcessBuilder(command)
                .directory(root.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(demo.waitFor(6, TimeUnit.MINUTES)).as("demo finished").isTrue();
        List<String> lines = Files.readAllLines(log);
        String all = String.join(System.lineSeparator(), lines);
        assertThat(demo.exitValue()).as(all).isZero();
        assertThat(lines).as(all).contains("DEMO OK");
        assertThat(all).contains("scheduler clock offsets: replica-1 -PT3S, replica-2 PT0S, replica-3 PT3S");
        assertThat(all).containsPattern("(?m)^DASHBOARD replica-2 http://127\\.0\\.0\\.1:\\d+/distlock ");

        Map<String, Map<Instant, Integer>> runs = new HashMap<>();
        Map<String, Instant> lastSeen = new HashMap<>();
        Set<String> ledgerReplicas = new HashSet<>();
        Map<String, String[]> summaries = new HashMap<>();
        List<Instant> afterKill = new ArrayList<>();
        Instant killedAt = null;
        Instant lastBeforeKill = null;
        for (String line : lines) {
            if (line.startsWith("KILLED replica=")) {
                killedAt = lastBeforeKill;
                continue;
            }
            Matcher summary = SUMMARY.matcher(line);
            if (summary.matches()) {
                summaries.put(summary.group(1), new String[] {summary.group(2), summary.group(3), summary.group(4),
                        summary.group(5)});
                continue;
            }
            Matcher skipped = SKIPPED.matcher(line);
            if (skipped.matches()) {
                // A slot refused as too early had not come yet by the store's clock: the demo may stop before it does,
                // and the summary counts only slots whose time came.
                if (!skipped.group(4).equals("too-early")) {
                    lastSeen.merge(skipped.group(1), Instant.parse(skipped.group(2)), DemoScriptIT::later);
                }
                continue;
            }
            Matcher m = EXECUTED.matcher(line);
            if (!m.matches()) {
                continue;
            }
            String job = m.group(1);
            Instant slot = Instant.parse(m.group(2));
            runs.computeIfAbsent(job, key -> new TreeMap<>()).merge(slot, 1, Integer::sum);
            lastSeen.merge(job, slot, DemoScriptIT::later);
            if (job.equals("ledger")) {
                ledgerReplicas.add(m.group(3));
                if (killedAt == null) {
                    lastBeforeKill = slot;
                }
                else {
                    afterKill.add(slot);
                }
            }
        }

        assertThat(summaries).as(all).containsOnlyKeys(PERIODS.keySet());
        PERIODS.forEach((job, period) -> {
            Map<Instant, Integer> executed = runs.getOrDefault(job, Map.of());
            assertThat(executed).as("executions of %s", job).isNotEmpty();
            Instant first = executed.keySet().iterator().next();
            long slots = (lastSeen.get(job).getEpochSecond() - first.getEpochSecond()) / period + 1;
            int executions = executed.values().stream().mapToInt(Integer::intValue).sum();
            assertThat(summaries.get(job)).as("SUMMARY of %s: slots, executions, duplicates, missed", job)
                    .containsExactly(Long.toString(slots), Integer.toString(executions),
                            Integer.toString(executions - executed.size()), Long.toString(slots - executed.size()));
        });
        for (String job : List.of("ledger", "report", "per-slot")) {
            assertThat(runs.get(job)).as("executions per slot of %s, claimed per slot", job)
                    .allSatisfy((slot, count) -> assertThat(count).as(slot.toString()).isEqualTo(1));
            assertThat(summaries.get(job)[2]).as("duplicates of %s", job).isEqualTo("0");
        }
        // The lock alone does not stop a replica whose clock is behind from running a finished slot again.
        assertThat(runs.get("lock-only").values()).as("lock-only job: some slot ran more than once")
                .anySatisfy(count -> assertThat(count).isGreaterThan(1));

        assertThat(ledgerReplicas).as("replicas that executed the ledger").hasSizeGreaterThanOrEqualTo(2);
        assertThat(killedAt).as("a KILLED line after an execution").isNotNull();
        assertThat(afterKill).as("executions after the kill").isNotEmpty();
        assertThat(afterKill.get(0)).as("resumed within one TTL (3 s) plus one period (5 s)")
                .isBeforeOrEqualTo(killedAt.plusSeconds(3 + 5 + 5));
        assertThat(all).containsPattern("(?m)^FENCED job=ledger replica=\\S+ token=\\d+ current=\\d+$");
        Files.delete(log);
        return all;
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
