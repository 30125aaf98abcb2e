package io.distlock.sample;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs {@code ./demo.sh --replicas 3 --seconds 40} and checks what it shows: at most one execution per slot, a
 * takeover within one TTL plus one period after the kill, at least two replicas executing, a fenced write after the
 * pause, and {@code DEMO OK}. Takes about a minute and a half, so it runs only with {@code -Pdemo-test}, after the
 * application jar is built.
 */
class DemoScriptIT {

    private static final Pattern EXECUTED = Pattern.compile(
            "^EXECUTED job=(\\S+) slot=(\\S+) replica=(\\S+) token=(\\d+)$");

    @Test
    void demoShowsOneExecutionPerTickATakeoverAndAFencedWrite() throws Exception {
        Path root = Path.of("..").toAbsolutePath().normalize();
        Path log = Files.createTempFile("demo", ".log");
        Process demo = new ProcessBuilder("bash", "demo.sh", "--replicas", "3", "--seconds", "40")
                .directory(root.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(demo.waitFor(6, TimeUnit.MINUTES)).as("demo finished").isTrue();
        List<String> lines = Files.readAllLines(log);
        String all = String.join(System.lineSeparator(), lines);
        assertThat(demo.exitValue()).as(all).isZero();
        assertThat(lines).contains("DEMO OK");

        Map<String, Integer> ledgerRuns = new HashMap<>();
        Set<String> replicas = new HashSet<>();
        List<Instant> afterKill = new ArrayList<>();
        Instant killedAt = null;
        Instant lastBeforeKill = null;
        for (String line : lines) {
            if (line.startsWith("KILLED replica=")) {
                killedAt = lastBeforeKill;
                continue;
            }
            Matcher m = EXECUTED.matcher(line);
            if (m.matches() && m.group(1).equals("ledger")) {
                ledgerRuns.merge(m.group(2), 1, Integer::sum);
                replicas.add(m.group(3));
                Instant slot = Instant.parse(m.group(2));
                if (killedAt == null) {
                    lastBeforeKill = slot;
                }
                else {
                    afterKill.add(slot);
                }
            }
        }
        assertThat(ledgerRuns).as("executions per slot").isNotEmpty().allSatisfy((slot, runs) -> assertThat(runs)
                .as(slot).isEqualTo(1));
        assertThat(replicas).as("replicas that executed").hasSizeGreaterThanOrEqualTo(2);
        assertThat(killedAt).as("a KILLED line after an execution").isNotNull();
        assertThat(afterKill).as("executions after the kill").isNotEmpty();
        assertThat(afterKill.get(0)).as("resumed within one TTL (3 s) plus one period (5 s)")
                .isBeforeOrEqualTo(killedAt.plusSeconds(3 + 5 + 5));
        assertThat(all).containsPattern("(?m)^FENCED job=ledger replica=\\S+ token=\\d+ current=\\d+$");
        new File(log.toString()).delete();
    }
}
