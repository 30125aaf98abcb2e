package io.distlock.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.distlock.testsupport.TestDatabase;

/**
 * Everything one run found, and its renderings: the {@code RATIO}, {@code STATEMENTS} and {@code WATCHDOG} lines, the
 * goals, the JSON results and the Markdown report.
 */
final class BenchmarkReport {

    private static final List<String> PEERS = List.of("shedlock", "jdbclockregistry", "floor");

    private static final List<String> GOAL_DATABASES = BenchmarkPlan.GOAL_DATABASES;

    private static final List<Integer> GOAL_THREADS = BenchmarkPlan.GOAL_THREADS;

    private final BenchmarkPlan plan;

    private final String command;

    private final Instant started = Instant.now();

    private final String loadAtStart = loadAverage();

    private final Map<String, String> serverVersions = new LinkedHashMap<>();

    private final Map<String, String> skipped = new LinkedHashMap<>();

    private final List<Measurement> measurements = new ArrayList<>();

    private final List<StatementCounts.Cycle> cycles = new ArrayList<>();

    private final List<StatementCounts.Round> rounds = new ArrayList<>();

    BenchmarkReport(BenchmarkPlan plan, String command) {
        this.plan = plan;
        this.command = command;
    }

    void serverVersion(TestDatabase db, String version) {
        serverVersions.put(db.id(), version);
    }

    void skipped(TestDatabase db, String reason) {
        skipped.put(db.id(), reason);
    }

    void add(Measurement measurement) {
        measurements.add(measurement);
    }

    void add(StatementCounts.Cycle cycle) {
        cycles.add(cycle);
    }

    void add(StatementCounts.Round round) {
        rounds.add(round);
    }

    // ----- lines -----

    List<String> statementLines() {
        return cycles.stream().map(c -> String.format(Locale.ROOT, "STATEMENTS impl=%s db=%s per_cycle=%s", c.impl(),
                c.db(), count(c.perCycle()))).toList();
    }

    List<String> watchdogLines() {
        List<String> lines = new ArrayList<>();
        for (StatementCounts.Round round : rounds) {
            Optional<Measurement> time = find(round.db(), "watchdog", "distlock", 1, round.leases());
            lines.add(String.format(Locale.ROOT, "WATCHDOG db=%s leases=%d statements_per_round=%s ms_per_round=%s",
                    round.db(), round.leases(), count(round.perRound()),
                    time.map(m -> String.format(Locale.ROOT, "%.1f", m.score())).orElse("n/a")));
        }
        return lines;
    }

    List<String> ratioLines() {
        List<String> lines = new ArrayList<>();
        for (String db : serverVersions.keySet()) {
            for (String scenario : List.of("uncontended", "contended", "aspect")) {
                String subject = scenario.equals("aspect") ? "annotated" : "distlock";
                String peerScenario = scenario.equals("aspect") ? "uncontended" : scenario;
                for (int threads : threads(db, scenario)) {
                    Optional<Measurement> distlock = find(db, scenario, subject, threads, 0);
                    if (distlock.isEmpty()) {
                        continue;
                    }
                    double ops = distlock.get().opsPerSecond();
                    StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                            "RATIO db=%s scenario=%s threads=%d distlock_ops_s=%d", db, scenario, threads,
                            Math.round(ops)));
                    for (String peer : PEERS) {
                        line.append(' ').append(peer).append('=')
                                .append(ratio(distlock, find(db, peerScenario, peer, threads, 0)));
                    }
                    if (scenario.equals("aspect")) {
                        line.append(" programmatic=").append(ratio(distlock, find(db, scenario, "programmatic", threads, 0)));
                    }
                    else if (db.equals("postgresql")) {
                        line.append(" pg_advisory=").append(ratio(distlock, find(db, scenario, "pg-advisory", threads, 0)));
                    }
                    lines.add(line.toString());
                }
            }
        }
        return lines;
    }

    // ----- goals -----

    /** Whether a goal was met. */
    enum Status {
        MET, MISSED, NOT_MEASURED
    }

    /**
     * One performance goal at one place.
     *
     * @param goal what is aimed at
     * @param where database and threads
     * @param measured the figure, NaN when not measured
     * @param target the bound, as text
     * @param status the verdict
     */
    record Goal(String goal, String where, double measured, String target, Status status) {

        String line() {
            return String.format(Locale.ROOT, "%s %s [%s] measured=%s target=%s", status, goal.replace(' ', '_'),
                    where, Double.isNaN(measured) ? "n/a" : measuredText(), target);
        }

        /** @return the figure with three decimals (a count without), so that its verdict can be read off it */
        String measuredText() {
            return Double.isNaN(measured) ? "—" : count3(measured);
        }

        /**
         * Whether a ratio lies within 10% of its bound, where one run on a shared machine gives no clear verdict.
         *
         * @return {@code true} for a ratio goal within 10% of its bound
         */
        boolean close() {
            if (Double.isNaN(measured) || goal.startsWith("watchdog")) {
                return false;
            }
            double bound = Double.parseDouble(target.replaceAll("[^0-9.]", ""));
            return Math.abs(measured / bound - 1) < 0.10;
        }

        private static String count3(double value) {
            return value == Math.rint(value) ? String.valueOf((long) value)
                    : String.format(Locale.ROOT, "%.3f", value);
        }
    }

    List<Goal> goals() {
        List<Goal> goals = new ArrayList<>();
        Map<String, Double> bounds = Map.of("shedlock", 1.0, "jdbclockregistry", 1.5, "floor", 0.85);
        for (String db : GOAL_DATABASES) {
            for (int threads : GOAL_THREADS) {
                Optional<Measurement> distlock = find(db, "uncontended", "distlock", threads, 0);
                for (String peer : PEERS) {
                    double ratio = ratioValue(distlock, find(db, "uncontended", peer, threads, 0));
                    double bound = bounds.get(peer);
                    goals.add(new Goal("uncontended distlock/" + peer, db + ", " + threads + " thread(s)", ratio,
                            "≥ " + bound, Double.isNaN(ratio) ? Status.NOT_MEASURED
                                    : ratio >= bound ? Status.MET : Status.MISSED));
                }
            }
        }
        List<String> aspectDbs = serverVersions.keySet().stream()
                .filter(db -> measurements.stream().anyMatch(m -> m.db().equals(db) && m.scenario().equals("aspect")))
                .toList();
        if (aspectDbs.isEmpty()) {
            goals.add(new Goal("aspect time/programmatic time", "any database", Double.NaN, "≤ 1.05", Status.NOT_MEASURED));
        }
        for (String db : aspectDbs) {
            for (int threads : threads(db, "aspect")) {
                Optional<Measurement> annotated = find(db, "aspect", "annotated", threads, 0);
                Optional<Measurement> programmatic = find(db, "aspect", "programmatic", threads, 0);
                double ratio = ratioValue(programmatic, annotated);
                goals.add(new Goal("aspect time/programmatic time", db + ", " + threads + " thread(s)", ratio, "≤ 1.05",
                        Double.isNaN(ratio) ? Status.NOT_MEASURED : ratio <= 1.05 ? Status.MET : Status.MISSED));
            }
        }
        for (StatementCounts.Round round : rounds) {
            if (round.leases() == 10_000) {
                goals.add(new Goal("watchdog statements per round", round.db() + ", 10,000 leases", round.perRound(),
                        "≤ 20", round.perRound() <= 20 ? Status.MET : Status.MISSED));
            }
        }
        return goals;
    }

    // ----- JSON -----

    String toJson() {
        StringBuilder json = new StringBuilder("{\n");
        json.append("  \"generatedAt\": ").append(quote(started.truncatedTo(ChronoUnit.SECONDS).toString())).append(",\n");
        json.append("  \"command\": ").append(quote(command)).append(",\n");
        json.append("  \"plan\": ").append(quote(plan.describe())).append(",\n");
        json.append("  \"machine\": {");
        json.append(machine().entrySet().stream().map(e -> quote(e.getKey()) + ": " + quote(e.getValue()))
                .collect(Collectors.joining(", "))).append("},\n");
        json.append("  \"databases\": {").append(serverVersions.entrySet().stream()
                .map(e -> quote(e.getKey()) + ": " + quote(e.getValue())).collect(Collectors.joining(", "))).append("},\n");
        json.append("  \"skipped\": {").append(skipped.entrySet().stream()
                .map(e -> quote(e.getKey()) + ": " + quote(e.getValue())).collect(Collectors.joining(", "))).append("},\n");
        json.append("  \"measurements\": [\n").append(measurements.stream().map(m -> String.format(Locale.ROOT,
                "    {\"db\": %s, \"scenario\": %s, \"impl\": %s, \"threads\": %d, \"leases\": %d, \"score\": %s, "
                        + "\"error\": %s, \"unit\": %s, \"acquiredPerSecond\": %s}",
                quote(m.db()), quote(m.scenario()), quote(m.impl()), m.threads(), m.leases(), number(m.score()),
                number(m.error()), quote(m.unit()), number(m.acquired()))).collect(Collectors.joining(",\n")))
                .append("\n  ],\n");
        json.append("  \"statementsPerCycle\": [\n").append(cycles.stream().map(c -> String.format(Locale.ROOT,
                "    {\"impl\": %s, \"db\": %s, \"statements\": %s, \"transactionEnds\": %s, \"stateChanges\": %s}",
                quote(c.impl()), quote(c.db()), number(c.perCycle()), number(c.transactionEndsPerCycle()),
                number(c.stateChangesPerCycle()))).collect(Collectors.joining(",\n"))).append("\n  ],\n");
        json.append("  \"watchdogStatementsPerRound\": [\n").append(rounds.stream().map(r -> String.format(Locale.ROOT,
                "    {\"db\": %s, \"leases\": %d, \"statements\": %s}", quote(r.db()), r.leases(), number(r.perRound())))
                .collect(Collectors.joining(",\n"))).append("\n  ],\n");
        json.append("  \"lines\": [\n").append(allLines().stream().map(l -> "    " + quote(l))
                .collect(Collectors.joining(",\n"))).append("\n  ],\n");
        json.append("  \"goals\": [\n").append(goals().stream().map(g -> String.format(Locale.ROOT,
                "    {\"goal\": %s, \"where\": %s, \"measured\": %s, \"target\": %s, \"status\": %s}", quote(g.goal()),
                quote(g.where()), number(g.measured()), quote(g.target()), quote(g.status().name())))
                .collect(Collectors.joining(",\n"))).append("\n  ]\n");
        return json.append("}\n").toString();
    }

    private List<String> allLines() {
        List<String> lines = new ArrayList<>(statementLines());
        lines.addAll(watchdogLines());
        lines.addAll(ratioLines());
        return lines;
    }

    // ----- Markdown -----

    String toMarkdown() {
        StringBuilder md = new StringBuilder();
        Map<String, String> machine = machine();
        md.append("# Benchmarks\n\n");
        md.append("<!-- Generated by scripts/bench.sh (lock-benchmarks' BenchmarkReport): edit the generator, not this file. -->\n\n");
        md.append("distlock against ShedLock, Spring Integration's `JdbcLockRegistry`, a raw-SQL floor and (on PostgreSQL) ")
                .append("advisory locks, side by side in one run on the same databases, pool and table state. ")
                .append("Rerun with `scripts/bench.sh` (all databases, about 25 minutes) or `scripts/bench.sh --quick` ")
                .append("(about three minutes, for a first look).\n\n");
        md.append("> **Figures are from one ").append(plan.quick() ? "*quick* " : "").append("run on a ")
                .append(machine.get("cores")).append("-core machine** that other work shared (load average ")
                .append(loadAtStart).append(" at the start, ").append(loadAverage()).append(" at the end). ")
                .append("Expect the absolute figures to move by tens of percent between runs; the ratios, taken between ")
                .append("figures measured seconds apart, move less, but a ratio within about 10% of its target is not ")
                .append("a clear verdict either way.\n\n");

        md.append("## Where we stand\n\n");
        md.append("| goal | where | measured | target | status |\n|---|---|---|---|---|\n");
        for (Goal goal : goals()) {
            md.append("| ").append(goal.goal()).append(" | ").append(goal.where()).append(" | ")
                    .append(goal.measuredText()).append(" | ").append(goal.target()).append(" | ")
                    .append(switch (goal.status()) {
                        case MET -> "met";
                        case MISSED -> "**missed**";
                        case NOT_MEASURED -> "not measured";
                    }).append(goal.close() ? " (within 10%)" : "").append(" |\n");
        }
        md.append("\nRatios are throughput ratios (distlock ÷ other), except the aspect's, which is a time ratio ")
                .append("(annotated call ÷ programmatic cycle).\n\n");

        md.append("## Setup\n\n");
        md.append("- **Date**: ").append(started.truncatedTo(ChronoUnit.SECONDS)).append(" (UTC)\n");
        md.append("- **Command**: `").append(command).append("`\n");
        md.append("- **Machine**: ").append(machine.get("cpu")).append(", ").append(machine.get("cores"))
                .append(" cores, ").append(machine.get("memory")).append(", ").append(machine.get("os")).append("\n");
        md.append("- **JDK**: ").append(machine.get("jdk")).append("\n");
        md.append("- **JMH** ").append(version("org.openjdk.jmh", "jmh-core")).append(": ").append(plan.describe())
                .append(". A figure is the median of its rounds, ± the 99.9% confidence half-width over all their ")
                .append("iterations; a ratio is the median of the per-round ratios, each between figures measured ")
                .append("seconds apart, so that drift in the machine's load cancels out. Everything runs in one JVM ")
                .append("(JMH warns about non-forked runs): the alternative, a fresh JVM per figure, would need its own ")
                .append("warm-up per round and make interleaving unaffordable.\n");
        md.append("- **Databases**: ");
        md.append(serverVersions.entrySet().stream().map(e -> e.getKey() + " — " + e.getValue())
                .collect(Collectors.joining("; ")));
        if (!skipped.isEmpty()) {
            md.append("; skipped (unreachable): ").append(String.join(", ", skipped.keySet()));
        }
        md.append(". H2 runs in memory, in the benchmark's JVM; the servers are local, over TCP on 127.0.0.1.\n");
        md.append("- **Pool**: HikariCP ").append(version("com.zaxxer", "HikariCP")).append(", ")
                .append(BenchPool.SIZE).append(" connections opened up front, autocommit, the same for every ")
                .append("implementation; drivers: pgjdbc ").append(version("org.postgresql", "postgresql"))
                .append(", MariaDB Connector/J ").append(version("org.mariadb.jdbc", "mariadb-java-client"))
                .append(", H2 ").append(version("com.h2database", "h2")).append(", all with default settings.\n");
        md.append("- **Implementations** (a *cycle* takes the lock without waiting and gives it back):\n");
        md.append("  - `distlock` ").append(version("io.distlock", "lock-core"))
                .append(": `LockManager.runLocked(LockRequest.of(resource, 30 s).withoutRenewal(), empty work)` (acquire + release), database time.\n");
        md.append("  - `shedlock` ").append(version("net.javacrumbs.shedlock", "shedlock-provider-jdbc-template"))
                .append(": `JdbcTemplateLockProvider` with `usingDbTime()`, `lock(…)` + `unlock()`.\n");
        md.append("  - `jdbclockregistry` — Spring Integration ")
                .append(version("org.springframework.integration", "spring-integration-jdbc"))
                .append(": `JdbcLockRegistry` over `DefaultLockRepository` with a `DataSourceTransactionManager`, ")
                .append("`obtain(name).tryLock()` + `unlock()` (application time: it has no database-time mode).\n");
        md.append("  - `floor`: plain JDBC, autocommit, two prepared single-row `UPDATE`s on a pre-inserted row (take ")
                .append("when expired, by the database clock; give back when owned), each on a connection borrowed from ")
                .append("the pool: nothing correct with durable state is cheaper.\n");
        md.append("  - `pg-advisory` (PostgreSQL only): `pg_try_advisory_lock` + `pg_advisory_unlock` on one borrowed ")
                .append("connection; no durable state, so a reference point, not a peer.\n");
        md.append("- **Threads and resources**: every benchmark thread is a node with its own client (its own ")
                .append("`LockManager`, lock provider or registry). *Uncontended*: thread *i* cycles on a resource of its ")
                .append("own. *Contended*: all threads cycle on one resource; the score is successful acquisitions per ")
                .append("second, with attempts per second beside it. Every table is emptied before each measurement.\n");
        md.append("- **Statements** are counted apart from the timed runs, over 100 warmed-up cycles, by a ")
                .append("statement-counting `DataSource` wrapper: SQL statements executed, transaction ends ")
                .append("(commit/rollback) and connection-state changes (`setAutoCommit`, `setTransactionIsolation`, ")
                .append("`setReadOnly`), which some drivers send as round trips of their own.\n\n");

        md.append("## Uncontended cycle\n\n");
        for (String db : serverVersions.keySet()) {
            List<String> impls = impls(db, "uncontended");
            if (impls.isEmpty()) {
                continue;
            }
            md.append("### ").append(db).append("\n\n| threads | ").append(String.join(" | ", impls))
                    .append(" | ÷ shedlock | ÷ jdbclockregistry | ÷ floor |\n|---|")
                    .append("---:|".repeat(impls.size() + 3)).append("\n");
            for (int threads : threads(db, "uncontended")) {
                md.append("| ").append(threads);
                for (String impl : impls) {
                    md.append(" | ").append(find(db, "uncontended", impl, threads, 0).map(BenchmarkReport::opsCell).orElse("—"));
                }
                Optional<Measurement> distlock = find(db, "uncontended", "distlock", threads, 0);
                for (String peer : PEERS) {
                    md.append(" | ").append(ratio(distlock, find(db, "uncontended", peer, threads, 0)));
                }
                md.append(" |\n");
            }
            md.append("\nCycles per second; the last three columns are distlock's throughput divided by the peer's.\n\n");
        }

        md.append("## Statements per cycle\n\n");
        md.append("SQL statements per successful cycle, and in brackets explicit transaction ends (`commit`/`rollback` ")
                .append("calls; a statement in autocommit commits by itself) and connection-state changes. On PostgreSQL and ")
                .append("MariaDB every committed write waits for the log to reach the disk, so at one thread the ")
                .append("number of writing transactions per cycle sets most of the throughput; on in-memory H2 the ")
                .append("statements' CPU cost does.\n\n");
        List<String> countedDbs = cycles.stream().map(StatementCounts.Cycle::db).distinct().toList();
        md.append("| implementation | ").append(String.join(" | ", countedDbs)).append(" |\n|---|")
                .append("---:|".repeat(countedDbs.size())).append("\n");
        for (String impl : cycles.stream().map(StatementCounts.Cycle::impl).distinct().toList()) {
            md.append("| ").append(impl);
            for (String db : countedDbs) {
                md.append(" | ").append(cycles.stream().filter(c -> c.impl().equals(impl) && c.db().equals(db))
                        .findFirst().map(c -> count(c.perCycle()) + " (" + count(c.transactionEndsPerCycle()) + ", "
                                + count(c.stateChangesPerCycle()) + ")")
                        .orElse("—"));
            }
            md.append(" |\n");
        }
        md.append("\n");

        md.append("## Contended cycle\n\n");
        md.append("All threads on one resource: successful acquisitions per second (attempts per second).\n\n");
        for (String db : serverVersions.keySet()) {
            List<String> impls = impls(db, "contended");
            if (impls.isEmpty()) {
                continue;
            }
            md.append("### ").append(db).append("\n\n| threads | ").append(String.join(" | ", impls))
                    .append(" | ÷ shedlock | ÷ jdbclockregistry | ÷ floor |\n|---|")
                    .append("---:|".repeat(impls.size() + 3)).append("\n");
            for (int threads : threads(db, "contended")) {
                md.append("| ").append(threads);
                for (String impl : impls) {
                    md.append(" | ").append(find(db, "contended", impl, threads, 0)
                            .map(m -> thousands(m.acquired()) + " (" + thousands(m.score()) + ")").orElse("—"));
                }
                Optional<Measurement> distlock = find(db, "contended", "distlock", threads, 0);
                for (String peer : PEERS) {
                    md.append(" | ").append(ratio(distlock, find(db, "contended", peer, threads, 0)));
                }
                md.append(" |\n");
            }
            md.append("\n");
        }
        md.append("`jdbclockregistry`'s registry serialises a process's threads on a local `ReentrantLock` per key; ")
                .append("here every thread has its own registry, so the threads meet in the database, as separate ")
                .append("instances would.\n\n");

        md.append("## Aspect\n\n");
        if (measurements.stream().noneMatch(m -> m.scenario().equals("aspect"))) {
            md.append("Not measured in this run: the `@DistributedLock` starter was not on the benchmark's class path.\n\n");
        }
        else {
            md.append("A call of an empty method annotated `@DistributedLock(resource = \"#{#resource}\", ttl = \"PT30S\", ")
                    .append("renew = false)` against the programmatic call it stands for (`LockManager.runLocked` ")
                    .append("with the same request), in one Spring context on the same database, pool, table and `LockManager`; ")
                    .append("each thread locks a resource of its own. The time ratio is the annotated call's time ÷ the ")
                    .append("programmatic cycle's.\n\n");
            md.append("| database | threads | annotated call/s | programmatic cycle/s | time ratio |\n|---|---:|---:|---:|---:|\n");
            for (String db : serverVersions.keySet()) {
                for (int threads : threads(db, "aspect")) {
                    Optional<Measurement> annotated = find(db, "aspect", "annotated", threads, 0);
                    Optional<Measurement> programmatic = find(db, "aspect", "programmatic", threads, 0);
                    md.append("| ").append(db).append(" | ").append(threads).append(" | ")
                            .append(annotated.map(BenchmarkReport::opsCell).orElse("—")).append(" | ")
                            .append(programmatic.map(BenchmarkReport::opsCell).orElse("—")).append(" | ")
                            .append(ratio(programmatic, annotated))
                            .append(" |\n");
                }
            }
            md.append("\n");
        }

        md.append("## Watchdog\n\n");
        md.append("One renewal round over held leases that share a TTL: `LockRepository.renewAll`, the single call a ")
                .append("`LeaseWatchdog` round makes for them (batched statements; every lease must come back renewed).\n\n");
        md.append("| database | leases | ms per round | statements per round |\n|---|---:|---:|---:|\n");
        for (StatementCounts.Round round : rounds) {
            Optional<Measurement> time = find(round.db(), "watchdog", "distlock", 1, round.leases());
            md.append("| ").append(round.db()).append(" | ").append(thousands(round.leases())).append(" | ")
                    .append(time.map(m -> String.format(Locale.ROOT, "%.1f", m.score())
                            + (Double.isNaN(m.error()) ? "" : String.format(Locale.ROOT, " ± %.1f", m.error())))
                            .orElse("—"))
                    .append(" | ").append(count(round.perRound())).append(" |\n");
        }
        md.append("\n");

        md.append("## Lines\n\n```\n");
        allLines().forEach(line -> md.append(line).append('\n'));
        md.append("```\n\n");
        md.append("JSON: `lock-benchmarks/target/benchmark-results.json` (this report's figures) and ")
                .append("`lock-benchmarks/target/jmh/*.json` (JMH's own results, one file per scenario, database, ")
                .append("thread count and round), written by the run; quick and narrowed runs write `-quick` or ")
                .append("`-partial` variants beside them.\n");
        return md.toString();
    }

    // ----- helpers -----

    private Optional<Measurement> find(String db, String scenario, String impl, int threads, int leases) {
        return measurements.stream().filter(m -> m.db().equals(db) && m.scenario().equals(scenario)
                && m.impl().equals(impl) && m.threads() == threads && m.leases() == leases).findFirst();
    }

    private List<Integer> threads(String db, String scenario) {
        return new ArrayList<>(measurements.stream().filter(m -> m.db().equals(db) && m.scenario().equals(scenario))
                .map(Measurement::threads).collect(Collectors.toCollection(TreeSet::new)));
    }

    private List<String> impls(String db, String scenario) {
        return measurements.stream().filter(m -> m.db().equals(db) && m.scenario().equals(scenario))
                .map(Measurement::impl).distinct().toList();
    }

    private static double ratioValue(Optional<Measurement> mine, Optional<Measurement> other) {
        if (mine.isEmpty() || other.isEmpty()) {
            return Double.NaN;
        }
        if (!mine.get().scenario().equals(other.get().scenario())) {
            double theirs = other.get().opsPerSecond();
            return theirs > 0 ? mine.get().opsPerSecond() / theirs : Double.NaN;
        }
        return mine.get().ratioTo(other.get());
    }

    private static String ratio(Optional<Measurement> mine, Optional<Measurement> other) {
        double ratio = ratioValue(mine, other);
        return Double.isNaN(ratio) ? "n/a" : String.format(Locale.ROOT, "%.2f", ratio);
    }

    private static String opsCell(Measurement m) {
        String cell = thousands(m.score());
        if (!Double.isNaN(m.error()) && m.score() > 0) {
            cell += String.format(Locale.ROOT, " ± %.0f%%", 100 * m.error() / m.score());
        }
        return cell;
    }

    private static String thousands(double value) {
        return Double.isNaN(value) ? "—" : String.format(Locale.ROOT, "%,d", Math.round(value));
    }

    private static String count(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String number(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? "null" : String.format(Locale.ROOT, "%.4f", value);
    }

    private static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    }
                    else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    private static Map<String, String> machine() {
        Map<String, String> machine = new LinkedHashMap<>();
        machine.put("cpu", cpuModel());
        machine.put("cores", String.valueOf(Runtime.getRuntime().availableProcessors()));
        long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
        machine.put("memory", Math.round(memory / (1024.0 * 1024 * 1024)) + " GiB");
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " ("
                + System.getProperty("os.arch") + ")");
        machine.put("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.vm.vendor") + ")");
        return machine;
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse("unknown CPU");
        }
        catch (IOException | RuntimeException ex) {
            return "unknown CPU";
        }
    }

    private static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return parts[0] + " / " + parts[1] + " / " + parts[2];
        }
        catch (IOException | RuntimeException ex) {
            return "unknown";
        }
    }

    private static String version(String group, String artifact) {
        String wanted = group + ":" + artifact + ":";
        try (InputStream in = BenchmarkReport.class.getResourceAsStream("dependencies.txt")) {
            if (in != null) {
                for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                    String entry = line.strip();
                    if (entry.startsWith(wanted)) {
                        // group:artifact:type[:classifier]:version:scope, possibly followed by " -- module …"
                        String[] parts = entry.split(" ")[0].split(":");
                        return parts.length >= 5 ? parts[parts.length - 2] : "";
                    }
                }
            }
        }
        catch (IOException ex) {
            return "";
        }
        return "";
    }
}
