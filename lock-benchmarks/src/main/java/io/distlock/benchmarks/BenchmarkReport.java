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
 * Everything one run found, and its renderings: the {@code RATIO}, {@code STATEMENTS}, {@code ERRORS},
 * {@code WATCHDOG}, {@code HEAP} and {@code HANDOVER} lines, the goals, the JSON results and the Markdown report.
 */
final class BenchmarkReport {

    /** distlock's peers on the databases: ShedLock, Spring Integration's {@code JdbcLockRegistry} and the floor. */
    private static final List<String> PEERS = List.of("shedlock", "jdbclockregistry", "floor");

    /** distlock's peers on Redis: Redisson and Spring Integration's {@code RedisLockRegistry}. */
    private static final List<String> REDIS_PEERS = List.of("redisson", "redislockregistry");

    /** The databases every database goal is judged on. */
    private static final List<String> DATABASES = List.of("postgresql", "mariadb", "h2");

    private static final List<Integer> GOAL_THREADS = BenchmarkPlan.GOAL_THREADS;

    private final BenchmarkPlan plan;

    private final String command;

    private final Instant started = Instant.now();

    private final String loadAtStart = loadAverage();

    private final Map<String, String> serverVersions = new LinkedHashMap<>();

    private final Map<String, String> skipped = new LinkedHashMap<>();

    private final List<Measurement> measurements = new ArrayList<>();

    private final List<StatementCounts.Cycle> cycles = new ArrayList<>();

    private final List<StatementCounts.Errors> errors = new ArrayList<>();

    private final List<StatementCounts.Round> rounds = new ArrayList<>();

    private final List<HeapScenario.Figure> heaps = new ArrayList<>();

    private final List<HandoverFigure> handovers = new ArrayList<>();

    BenchmarkReport(BenchmarkPlan plan, String command) {
        this.plan = plan;
        this.command = command;
    }

    void serverVersion(TestDatabase db, String version) {
        serverVersion(db.id(), version);
    }

    void serverVersion(String store, String version) {
        serverVersions.put(store, version);
    }

    void skipped(TestDatabase db, String reason) {
        skipped(db.id(), reason);
    }

    void skipped(String store, String reason) {
        skipped.put(store, reason);
    }

    void add(Measurement measurement) {
        measurements.add(measurement);
    }

    void add(StatementCounts.Cycle cycle) {
        cycles.add(cycle);
    }

    void add(StatementCounts.Errors counted) {
        errors.add(counted);
    }

    void add(StatementCounts.Round round) {
        rounds.add(round);
    }

    void add(HeapScenario.Figure heap) {
        heaps.add(heap);
    }

    void add(HandoverFigure handover) {
        handovers.add(handover);
    }

    // ----- lines -----

    List<String> statementLines() {
        return cycles.stream().map(c -> String.format(Locale.ROOT, "STATEMENTS impl=%s db=%s per_cycle=%s", c.impl(),
                c.db(), count(c.perCycle()))).toList();
    }

    List<String> errorLines() {
        return errors.stream().map(e -> String.format(Locale.ROOT,
                "ERRORS impl=%s db=%s scenario=contended threads=%d attempts=%d errors=%d", e.impl(), e.db(),
                e.threads(), e.attempts(), e.errors())).toList();
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

    List<String> heapLines() {
        return heaps.stream().map(h -> String.format(Locale.ROOT,
                "HEAP db=%s leases=%d bytes_per_lease=%d total_mb=%.1f statements_per_round=%s rounds=%.1f lost=%d",
                h.db(), h.leases(), Math.round(h.bytesPerLease()), h.totalMegabytes(), count(h.statementsPerRound()),
                h.rounds(), h.lost())).toList();
    }

    List<String> handoverLines() {
        List<String> lines = new ArrayList<>();
        Optional<HandoverFigure> anchor = anchor();
        for (HandoverFigure h : handovers) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                    "HANDOVER impl=%s db=%s waiters=%d p50_ms=%s p99_ms=%s samples=%d", h.impl(), h.db(), h.waiters(),
                    millis(h.p50Millis()), millis(h.p99Millis()), h.samples()));
            if (!h.impl().equals("redisson")) {
                line.append(" p50_vs_redisson=").append(anchor.map(a -> ratioText(h.p50RatioTo(a))).orElse("n/a"));
            }
            if (h.timeouts() > 0) {
                line.append(" timeouts=").append(h.timeouts());
            }
            lines.add(line.toString());
        }
        return lines;
    }

    private Optional<HandoverFigure> anchor() {
        return handover(RedisServer.ID, "redisson");
    }

    private Optional<HandoverFigure> handover(String db, String impl) {
        return handovers.stream().filter(h -> h.db().equals(db) && h.impl().equals(impl) && h.samples() > 0)
                .findFirst();
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
                    for (String peer : peers(db)) {
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
     * @param target the bound, as text: {@code ≥ 1.5}, {@code ≤ 5 ms}
     * @param status the verdict
     * @param reason why the goal was missed or not measured, from the run's own figures; empty when met
     */
    record Goal(String goal, String where, double measured, String target, Status status, String reason) {

        String line() {
            return String.format(Locale.ROOT, "%s %s [%s] measured=%s target=%s", status, goal.replace(' ', '_'),
                    where, Double.isNaN(measured) ? "n/a" : measuredText(), target.replace(" ", ""));
        }

        /** @return the figure with three decimals (a count without), so that its verdict can be read off it */
        String measuredText() {
            return Double.isNaN(measured) ? "—" : count3(measured);
        }

        /**
         * Whether a measured figure lies within 10% of its bound, where one run on a shared machine gives no clear
         * verdict; counts of statements are exact and never close.
         *
         * @return {@code true} for a timed figure within 10% of its bound
         */
        boolean close() {
            if (Double.isNaN(measured) || counted(goal)) {
                return false;
            }
            double bound = bound();
            return Math.abs(measured / bound - 1) < 0.10;
        }

        /** @return the bound's number */
        double bound() {
            return Double.parseDouble(target.replaceAll("[^0-9.]", ""));
        }

        /** @return whether the goal's figure is a count (statements, errors), which is exact and never close */
        static boolean counted(String goal) {
            return goal.contains("statements") || goal.contains("errors");
        }

        private static String count3(double value) {
            return value == Math.rint(value) ? String.valueOf((long) value)
                    : String.format(Locale.ROOT, "%.3f", value);
        }
    }

    /** Builds a goal from a figure and its bound. */
    private Goal goal(String goal, String where, double measured, String target, boolean atLeast, String reason) {
        if (Double.isNaN(measured)) {
            return new Goal(goal, where, measured, target, Status.NOT_MEASURED, reason.isEmpty() ? "not in this run"
                    : reason);
        }
        double bound = Double.parseDouble(target.replaceAll("[^0-9.]", ""));
        boolean met = atLeast ? measured >= bound : measured <= bound;
        String why = met ? "" : reason;
        if (!met && !Goal.counted(goal) && Math.abs(measured / bound - 1) < 0.10) {
            why = "within 10% of the bound, which one run on a shared 2-core machine does not settle"
                    + (why.isEmpty() ? "" : "; " + why);
        }
        if (!met && plan.quick()) {
            why = (why.isEmpty() ? "" : why + "; ") + "quick run: one 1 s iteration per figure";
        }
        return new Goal(goal, where, measured, target, met ? Status.MET : Status.MISSED, why);
    }

    List<Goal> goals() {
        List<Goal> goals = new ArrayList<>();
        // Uncontended cycle: what each database must show against each peer.
        Map<String, Map<String, Double>> uncontended = new LinkedHashMap<>();
        uncontended.put("postgresql", Map.of("shedlock", 1.5, "jdbclockregistry", 1.5, "floor", 1.0));
        uncontended.put("mariadb", Map.of("shedlock", 1.5, "jdbclockregistry", 1.5));
        uncontended.put("h2", Map.of("jdbclockregistry", 1.5, "floor", 0.9));
        uncontended.forEach((db, bounds) -> {
            for (int threads : GOAL_THREADS) {
                Optional<Measurement> distlock = find(db, "uncontended", "distlock", threads, 0);
                for (String peer : peers(db)) {
                    Double bound = bounds.get(peer);
                    if (bound == null) {
                        continue;
                    }
                    Optional<Measurement> other = find(db, "uncontended", peer, threads, 0);
                    goals.add(goal("uncontended distlock/" + peer, db + ", " + threads + " thread(s)",
                            ratioValue(distlock, other), "≥ " + bound, true,
                            missing(db).orElseGet(() -> cycleReason(db, peer, distlock, other))));
                }
            }
        });
        // Contended: four threads on one resource against the better of the two peers, without server-side errors.
        for (String db : DATABASES) {
            Optional<Measurement> distlock = find(db, "contended", "distlock", 4, 0);
            String best = null;
            double worst = Double.NaN;
            for (String peer : List.of("shedlock", "jdbclockregistry")) {
                double ratio = ratioValue(distlock, find(db, "contended", peer, 4, 0));
                if (!Double.isNaN(ratio) && (Double.isNaN(worst) || ratio < worst)) {
                    worst = ratio;
                    best = peer;
                }
            }
            Optional<Measurement> other = best == null ? Optional.empty() : find(db, "contended", best, 4, 0);
            goals.add(goal("contended distlock/best peer", db + ", 4 threads, one resource"
                    + (best == null ? "" : " (best peer: " + best + ")"), worst, "≥ 1.5", true,
                    missing(db).orElseGet(() -> contendedReason(distlock, other))));
            Optional<StatementCounts.Errors> counted = errors(db, "distlock");
            goals.add(goal("contended server-side errors", db + ", 4 threads, one resource"
                    + counted.map(e -> ", " + thousands(e.attempts()) + " attempts").orElse(""),
                    counted.map(e -> (double) e.errors()).orElse(Double.NaN), "0", false,
                    missing(db).orElseGet(() -> errorsReason(db))));
        }
        // Handover: how soon a waiter holds the lock after a release.
        Optional<HandoverFigure> anchor = anchor();
        Optional<HandoverFigure> pg = handover("postgresql", "distlock");
        goals.add(goal("handover p50", "postgresql, 4 waiters", pg.map(HandoverFigure::p50Millis)
                .orElse(Double.NaN), "≤ 5 ms", false, missingHandover("postgresql").orElseGet(() -> handoverReason(pg.get()))));
        goals.add(goal("handover p99", "postgresql, 4 waiters", pg.map(HandoverFigure::p99Millis)
                .orElse(Double.NaN), "≤ 50 ms", false, missingHandover("postgresql").orElseGet(() -> handoverReason(pg.get()))));
        goals.add(goal("handover p50/Redisson p50", "postgresql, 4 waiters",
                pg.isPresent() && anchor.isPresent() ? pg.get().p50RatioTo(anchor.get()) : Double.NaN, "≤ 2", false,
                anchor.isEmpty() ? "Redis " + (skipped.containsKey(RedisServer.ID) ? "unreachable" : "not in this run")
                        : missingHandover("postgresql").orElseGet(() -> String.format(Locale.ROOT,
                                "distlock's median %s ms against Redisson's %s ms: %s", millis(pg.get().p50Millis()),
                                millis(anchor.get().p50Millis()), handoverReason(pg.get())))));
        for (String db : List.of("mariadb", "h2")) {
            Optional<HandoverFigure> figure = handover(db, "distlock");
            goals.add(goal("handover p50", db + ", 4 waiters", figure.map(HandoverFigure::p50Millis)
                    .orElse(Double.NaN), "≤ 50 ms", false, missingHandover(db).orElseGet(() -> handoverReason(figure.get()))));
        }
        // Watchdog: statements per round and heap for 10,000 held leases.
        for (String db : DATABASES) {
            String where = db + ", 10,000 leases";
            Optional<StatementCounts.Round> round = rounds.stream()
                    .filter(r -> r.db().equals(db) && r.leases() == 10_000).findFirst();
            goals.add(goal("watchdog statements per round (renewAll)", where,
                    round.map(StatementCounts.Round::perRound).orElse(Double.NaN), "≤ 20", false,
                    missing(db).orElse(round.isEmpty() ? "" : "renewal batches hold fewer leases than 10,000 ÷ 20")));
            Optional<HeapScenario.Figure> heap = heaps.stream()
                    .filter(h -> h.db().equals(db) && h.leases() == 10_000).findFirst();
            goals.add(goal("watchdog statements per round (kept alive)", where,
                    heap.map(HeapScenario.Figure::statementsPerRound).orElse(Double.NaN), "≤ 20", false,
                    missing(db).orElseGet(() -> heap.map(h -> String.format(Locale.ROOT, "%.1f rounds counted; rounds "
                            + "that do not renew every due lease together cost more statements", h.rounds()))
                            .orElse(""))));
            goals.add(goal("heap of the held leases", where,
                    heap.map(HeapScenario.Figure::totalMegabytes).orElse(Double.NaN), "≤ 20 MB", false,
                    missing(db).orElseGet(() -> heap.map(h -> String.format(Locale.ROOT, "%d bytes retained per lease",
                            Math.round(h.bytesPerLease()))).orElse(""))));
        }
        // Aspect: the annotation's cost over the programmatic call.
        for (String db : DATABASES) {
            Optional<Measurement> annotated = find(db, "aspect", "annotated", 1, 0);
            Optional<Measurement> programmatic = find(db, "aspect", "programmatic", 1, 0);
            goals.add(goal("aspect time/programmatic time", db + ", 1 thread(s)", ratioValue(programmatic, annotated),
                    "≤ 1.03", false, missing(db).orElseGet(() -> annotated.isEmpty() || programmatic.isEmpty() ? ""
                            : "per-round time ratios " + spread(programmatic, annotated))));
        }
        // Redis: the store's cycle against Redisson's, and its handover against the anchor.
        String redis = RedisServer.ID;
        for (int threads : GOAL_THREADS) {
            Optional<Measurement> distlock = find(redis, "uncontended", "distlock", threads, 0);
            Optional<Measurement> redisson = find(redis, "uncontended", "redisson", threads, 0);
            goals.add(goal("uncontended distlock/redisson", redis + ", " + threads + " thread(s)",
                    ratioValue(distlock, redisson), "≥ 1.0", true,
                    missing(redis).orElseGet(() -> cycleReason(redis, "redisson", distlock, redisson))));
        }
        Optional<HandoverFigure> onRedis = handover(redis, "distlock");
        goals.add(goal("handover p50/Redisson p50", redis + ", 4 waiters",
                onRedis.isPresent() && anchor.isPresent() ? onRedis.get().p50RatioTo(anchor.get()) : Double.NaN,
                "≤ 2", false, missingHandover(redis).orElseGet(() -> String.format(Locale.ROOT,
                        "distlock's median %s ms against Redisson's %s ms: %s", millis(onRedis.get().p50Millis()),
                        millis(anchor.get().p50Millis()), handoverReason(onRedis.get())))));
        return goals;
    }

    /** Why a database's figures are missing, if they are. */
    private Optional<String> missing(String db) {
        if (skipped.containsKey(db)) {
            return Optional.of(db + " unreachable");
        }
        if (!serverVersions.containsKey(db)) {
            return Optional.of(db + " not in this run");
        }
        return Optional.empty();
    }

    private Optional<String> missingHandover(String db) {
        return missing(db).or(() -> handover(db, "distlock").isEmpty() ? Optional.of("handover not in this run")
                : Optional.empty());
    }

    /** Statements of both sides and the rounds' spread: what a reader needs to judge an uncontended miss. */
    private String cycleReason(String db, String peer, Optional<Measurement> distlock, Optional<Measurement> other) {
        if (distlock.isEmpty() || other.isEmpty()) {
            return "not in this run";
        }
        if (db.equals(RedisServer.ID)) {
            return "per-round ratios " + spread(distlock, other);
        }
        return "per-round ratios " + spread(distlock, other) + "; statements per cycle (commits/rollbacks, state "
                + "changes): distlock " + statements("distlock", db) + ", " + peer + " " + statements(peer, db);
    }

    private String contendedReason(Optional<Measurement> distlock, Optional<Measurement> other) {
        if (distlock.isEmpty() || other.isEmpty()) {
            return "not in this run";
        }
        return String.format(Locale.ROOT, "acquisitions/s %s against %s (attempts/s %s against %s); per-round ratios %s",
                thousands(distlock.get().acquired()), thousands(other.get().acquired()), thousands(distlock.get().score()),
                thousands(other.get().score()), spread(distlock, other));
    }

    /** Every implementation's count on the database, so that a miss can be read against the peers'. */
    private String errorsReason(String db) {
        if (errors(db, "distlock").isEmpty()) {
            return "not in this run";
        }
        return "statements the database refused in the contended cycle: " + errors.stream()
                .filter(e -> e.db().equals(db)).map(e -> e.impl() + " " + e.errors()).collect(Collectors.joining(", "));
    }

    private Optional<StatementCounts.Errors> errors(String db, String impl) {
        return errors.stream().filter(e -> e.db().equals(db) && e.impl().equals(impl)).findFirst();
    }

    private String handoverReason(HandoverFigure figure) {
        String text = String.format(Locale.ROOT, "%d samples, p50 %s ms, p99 %s ms", figure.samples(),
                millis(figure.p50Millis()), millis(figure.p99Millis()));
        if (figure.samples() < 100) {
            text += "; under 100 samples, so the p99 is close to the slowest one";
        }
        return text;
    }

    private String statements(String impl, String db) {
        return cycles.stream().filter(c -> c.impl().equals(impl) && c.db().equals(db)).findFirst()
                .map(c -> count(c.perCycle()) + " (" + count(c.transactionEndsPerCycle()) + ", "
                        + count(c.stateChangesPerCycle()) + ")")
                .orElse("n/a");
    }

    /** The per-round ratios, lowest to highest. */
    private static String spread(Optional<Measurement> mine, Optional<Measurement> other) {
        if (mine.isEmpty() || other.isEmpty()) {
            return "n/a";
        }
        List<Double> ratios = new ArrayList<>(mine.get().roundRatiosTo(other.get()));
        ratios.sort(null);
        return ratios.stream().map(BenchmarkReport::ratioText).collect(Collectors.joining(", "));
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
        json.append("  \"contendedErrors\": [\n").append(errors.stream().map(e -> String.format(Locale.ROOT,
                "    {\"impl\": %s, \"db\": %s, \"threads\": %d, \"attempts\": %d, \"errors\": %d}",
                quote(e.impl()), quote(e.db()), e.threads(), e.attempts(), e.errors()))
                .collect(Collectors.joining(",\n"))).append("\n  ],\n");
        json.append("  \"watchdogStatementsPerRound\": [\n").append(rounds.stream().map(r -> String.format(Locale.ROOT,
                "    {\"db\": %s, \"leases\": %d, \"statements\": %s}", quote(r.db()), r.leases(), number(r.perRound())))
                .collect(Collectors.joining(",\n"))).append("\n  ],\n");
        json.append("  \"heap\": [\n").append(heaps.stream().map(h -> String.format(Locale.ROOT,
                "    {\"db\": %s, \"leases\": %d, \"bytesPerLease\": %s, \"statementsPerRound\": %s, "
                        + "\"rounds\": %s, \"lost\": %d}", quote(h.db()), h.leases(), number(h.bytesPerLease()),
                number(h.statementsPerRound()), number(h.rounds()), h.lost())).collect(Collectors.joining(",\n")))
                .append("\n  ],\n");
        json.append("  \"handover\": [\n").append(handovers.stream().map(h -> String.format(Locale.ROOT,
                "    {\"db\": %s, \"impl\": %s, \"waiters\": %d, \"p50Millis\": %s, \"p99Millis\": %s, "
                        + "\"samples\": %d, \"timeouts\": %d, \"roundP50Millis\": [%s]}", quote(h.db()),
                quote(h.impl()), h.waiters(), number(h.p50Millis()), number(h.p99Millis()), h.samples(), h.timeouts(),
                h.roundP50Millis().stream().map(BenchmarkReport::number).collect(Collectors.joining(", "))))
                .collect(Collectors.joining(",\n"))).append("\n  ],\n");
        json.append("  \"lines\": [\n").append(allLines().stream().map(l -> "    " + quote(l))
                .collect(Collectors.joining(",\n"))).append("\n  ],\n");
        json.append("  \"goals\": [\n").append(goals().stream().map(g -> String.format(Locale.ROOT,
                "    {\"goal\": %s, \"where\": %s, \"measured\": %s, \"target\": %s, \"status\": %s, "
                        + "\"reason\": %s}", quote(g.goal()), quote(g.where()), number(g.measured()),
                quote(g.target()), quote(g.status().name()), quote(g.reason())))
                .collect(Collectors.joining(",\n"))).append("\n  ]\n");
        return json.append("}\n").toString();
    }

    private List<String> allLines() {
        List<String> lines = new ArrayList<>(statementLines());
        lines.addAll(errorLines());
        lines.addAll(watchdogLines());
        lines.addAll(heapLines());
        lines.addAll(ratioLines());
        lines.addAll(handoverLines());
        return lines;
    }

    // ----- Markdown -----

    String toMarkdown() {
        StringBuilder md = new StringBuilder();
        Map<String, String> machine = machine();
        md.append("# Benchmarks\n\n");
        md.append("<!-- Generated by scripts/bench.sh (lock-benchmarks' BenchmarkReport): edit the generator, not this file. -->\n\n");
        md.append("distlock against ShedLock, Spring Integration's `JdbcLockRegistry`, a raw-SQL floor and (on PostgreSQL) ")
                .append("advisory locks, side by side in one run on the same databases, pool and table state; its Redis ")
                .append("store against Redisson's `RLock` and Spring Integration's `RedisLockRegistry` on a local Redis; ")
                .append("and how soon a waiter gets a released lock, against Redisson's `RLock` as the anchor. ")
                .append("Rerun with `scripts/bench.sh` (all stores, about 45 minutes) or `scripts/bench.sh --quick` ")
                .append("(under five minutes, for a first look).\n\n");
        md.append("> **Figures are from one ").append(plan.quick() ? "*quick* " : "").append("run on a ")
                .append(machine.get("cores")).append("-core machine** that other work shared (load average ")
                .append(loadAtStart).append(" at the start, ").append(loadAverage()).append(" at the end). ")
                .append("Expect the absolute figures to move by tens of percent between runs; the ratios, taken between ")
                .append("figures measured seconds apart, move less, but a ratio within about 10% of its target is not ")
                .append("a clear verdict either way.\n\n");

        md.append("## Where we stand\n\n");
        md.append("| goal | where | measured | target | status | why missed |\n|---|---|---|---|---|---|\n");
        for (Goal goal : goals()) {
            md.append("| ").append(goal.goal()).append(" | ").append(goal.where()).append(" | ")
                    .append(goal.measuredText()).append(" | ").append(goal.target()).append(" | ")
                    .append(switch (goal.status()) {
                        case MET -> "met";
                        case MISSED -> "**missed**";
                        case NOT_MEASURED -> "not measured";
                    }).append(goal.close() && goal.status() == Status.MET ? " (within 10%)" : "").append(" | ")
                    .append(goal.reason().isEmpty() ? "" : goal.reason()).append(" |\n");
        }
        md.append("\nRatios are throughput ratios (distlock ÷ other), except the aspect's, which is a time ratio ")
                .append("(annotated call ÷ programmatic cycle), and the handover's, which divides distlock's median ")
                .append("handover by Redisson's. *Best peer*: the one of ShedLock and Spring Integration that ")
                .append("comes closest to distlock.\n\n");

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
        md.append("- **Redis**: the local server over TCP on 127.0.0.1; one Lettuce connection factory (Spring Data ")
                .append("Redis ").append(version("org.springframework.data", "spring-data-redis")).append(", Lettuce ")
                .append(version("io.lettuce", "lettuce-core")).append(", one shared connection) for distlock's Redis ")
                .append("store and the `RedisLockRegistry`, one Redisson client (").append(BenchPool.SIZE)
                .append(" connections) for Redisson; the nodes share them as they share the pool.\n");
        md.append("- **Implementations** (a *cycle* takes the lock without waiting and gives it back):\n");
        md.append("  - `distlock` ").append(version("io.distlock", "lock-core"))
                .append(": `LockManager.runLocked(LockRequest.of(resource, 30 s).withoutRenewal(), empty work)` ")
                .append("(acquire + release), the store's time; on Redis over `RedisLockRepository` (")
                .append(version("io.distlock", "lock-redis")).append(", Lua scripts).\n");
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
        md.append("  - `redisson` ").append(version("org.redisson", "redisson"))
                .append(" (Redis only): `RLock.tryLock(0, 30 s)` + `unlock()` (no wait, the same lease, no watchdog).\n");
        md.append("  - `redislockregistry` — Spring Integration ")
                .append(version("org.springframework.integration", "spring-integration-redis"))
                .append(" (Redis only): `RedisLockRegistry` in its default mode, `obtain(name).tryLock()` + `unlock()`.\n");
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
                    .append(peers(db).stream().map(peer -> " | ÷ " + peer).collect(Collectors.joining()))
                    .append(" |\n|---|").append("---:|".repeat(impls.size() + peers(db).size())).append("\n");
            for (int threads : threads(db, "uncontended")) {
                md.append("| ").append(threads);
                for (String impl : impls) {
                    md.append(" | ").append(find(db, "uncontended", impl, threads, 0).map(BenchmarkReport::opsCell).orElse("—"));
                }
                Optional<Measurement> distlock = find(db, "uncontended", "distlock", threads, 0);
                for (String peer : peers(db)) {
                    md.append(" | ").append(ratio(distlock, find(db, "uncontended", peer, threads, 0)));
                }
                md.append(" |\n");
            }
            md.append("\nCycles per second; the ÷ columns are distlock's throughput divided by the peer's.\n\n");
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
                    .append(peers(db).stream().map(peer -> " | ÷ " + peer).collect(Collectors.joining()))
                    .append(" |\n|---|").append("---:|".repeat(impls.size() + peers(db).size())).append("\n");
            for (int threads : threads(db, "contended")) {
                md.append("| ").append(threads);
                for (String impl : impls) {
                    md.append(" | ").append(find(db, "contended", impl, threads, 0)
                            .map(m -> thousands(m.acquired()) + " (" + thousands(m.score()) + ")").orElse("—"));
                }
                Optional<Measurement> distlock = find(db, "contended", "distlock", threads, 0);
                for (String peer : peers(db)) {
                    md.append(" | ").append(ratio(distlock, find(db, "contended", peer, threads, 0)));
                }
                md.append(" |\n");
            }
            md.append("\n");
        }
        md.append("Spring Integration's registries serialise a process's threads on a local `ReentrantLock` per key; ")
                .append("here every thread has its own registry, so the threads meet in the store, as separate ")
                .append("instances would.\n\n");
        if (!errors.isEmpty()) {
            md.append("### Server-side errors\n\n");
            md.append(StatementCounts.CONTENDED_THREADS).append(" threads, each a node with its own client, each ")
                    .append("attempting ").append(StatementCounts.CONTENDED_ATTEMPTS).append(" cycles on one ")
                    .append("resource, starting together, apart from the timed runs: statements and transaction ends ")
                    .append("the database refused with an `SQLException` (each an error the server logs, such as a ")
                    .append("duplicate key or a deadlock, whether or not the implementation handles it), counted by ")
                    .append("the statement-counting `DataSource`.\n\n");
            List<String> errorDbs = errors.stream().map(StatementCounts.Errors::db).distinct().toList();
            md.append("| implementation | ").append(String.join(" | ", errorDbs)).append(" |\n|---|")
                    .append("---:|".repeat(errorDbs.size())).append("\n");
            for (String impl : errors.stream().map(StatementCounts.Errors::impl).distinct().toList()) {
                md.append("| ").append(impl);
                for (String db : errorDbs) {
                    md.append(" | ").append(errors(db, impl).map(e -> String.valueOf(e.errors())).orElse("—"));
                }
                md.append(" |\n");
            }
            md.append("\n");
        }

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
        md.append("One renewal round over held leases that share a TTL: `BatchRenewal.renewAll`, the single call a ")
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

        md.append("## Handover\n\n");
        if (handovers.isEmpty()) {
            md.append("Not measured in this run.\n\n");
        }
        else {
            md.append(HandoverRun.WAITERS + 1).append(" threads on one resource, each looping: wait for the lock (")
                    .append("at most ").append(HandoverRun.MAX_WAIT.toSeconds()).append(" s), hold it ")
                    .append(HandoverRun.HOLD.toMillis()).append(" ms, release it, then stay out until another thread ")
                    .append("has it, so that every release finds ").append(HandoverRun.WAITERS).append(" waiters. A ")
                    .append("sample is the time from the holder starting its release to the next holder having the ")
                    .append("lock, both read from `System.nanoTime()` in the benchmark's JVM. `distlock`: all threads ")
                    .append("on one `LockManager` (`acquire(LockRequest.of(resource, 30 s).withMaxWait(…))`, kept ")
                    .append("alive by default, `Lease.release()`), whose release wakes its own waiters at once; ")
                    .append("`distlock-remote`: every thread on a `LockManager` of its own sharing the pool, so that a ")
                    .append("waiter learns of the release as a waiter on another replica does: on PostgreSQL by the ")
                    .append("release's notification (one listening connection per manager), elsewhere by polling ")
                    .append("(20 ms backoff doubling up to 1 s, with jitter); `distlock-remote-polling` (PostgreSQL): ")
                    .append("the same with notifications off. `jdbclockregistry`: one registry, ")
                    .append("`obtain(resource).lock()` + `unlock()`, which queues a process's threads on a local lock; ")
                    .append("`jdbclockregistry-remote`: a registry per thread, retrying every 100 ms (its default). ")
                    .append("`redisson` ").append(version("org.redisson", "redisson")).append(": one client, ")
                    .append("`RLock.tryLock(wait)` + `unlock()`, woken by the release's pub/sub message: the anchor. ")
                    .append("On Redis, `distlock` and `distlock-remote` run on distlock's Redis store, and ")
                    .append("`redislockregistry` / `redislockregistry-remote` are Spring Integration's ")
                    .append("`RedisLockRegistry` as the JDBC registry above (its default spin mode, 100 ms). ")
                    .append("Each round runs every implementation on every store, starting with the next one each ")
                    .append("round; a ratio to Redisson is the median of the per-round ratios of the medians.\n\n");
            md.append("| store | implementation | p50 ms | p99 ms | samples | p50 ÷ redisson |\n|---|---|---:|---:|---:|---:|\n");
            Optional<HandoverFigure> anchor = anchor();
            for (HandoverFigure h : handovers) {
                md.append("| ").append(h.db()).append(" | ").append(h.impl()).append(" | ").append(millis(h.p50Millis()))
                        .append(" | ").append(millis(h.p99Millis())).append(" | ").append(thousands(h.samples()))
                        .append(" | ").append(h.impl().equals("redisson") ? "—"
                                : anchor.map(a -> ratioText(h.p50RatioTo(a))).orElse("n/a"))
                        .append(" |\n");
            }
            md.append("\n");
        }

        md.append("## Held leases\n\n");
        if (heaps.isEmpty()) {
            md.append("Not measured in this run.\n\n");
        }
        else {
            md.append("Leases taken with `LockManager.acquire(LockRequest.of(resource, ")
                    .append(HeapScenario.TTL.toSeconds()).append(" s))` and held, kept alive by the manager's ")
                    .append("watchdog (one thread, renewing after a third of the TTL). *Heap*: used heap after ")
                    .append("`System.gc()` (median of five samples) with the leases held, less the same before they ")
                    .append("were taken (manager built and warmed up, resource names made), per lease. *Statements per ")
                    .append("round*: counted by the statement-counting `DataSource` under the manager over whole ")
                    .append("watchdog rounds, after the rounds have aligned, and divided by the rounds (renewals ÷ ")
                    .append("leases).\n\n");
            md.append("| database | leases | bytes per lease | heap MB | statements per round | lost |\n")
                    .append("|---|---:|---:|---:|---:|---:|\n");
            for (HeapScenario.Figure h : heaps) {
                md.append("| ").append(h.db()).append(" | ").append(thousands(h.leases())).append(" | ")
                        .append(thousands(h.bytesPerLease())).append(" | ")
                        .append(String.format(Locale.ROOT, "%.1f", h.totalMegabytes())).append(" | ")
                        .append(count(h.statementsPerRound())).append(" | ").append(h.lost()).append(" |\n");
            }
            md.append("\n");
        }

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

    /** @return distlock's peers on a store, in the order of the RATIO lines and the tables' ratio columns */
    private static List<String> peers(String db) {
        return db.equals(RedisServer.ID) ? REDIS_PEERS : PEERS;
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

    private static String ratioText(double ratio) {
        return Double.isNaN(ratio) ? "n/a" : String.format(Locale.ROOT, "%.2f", ratio);
    }

    /** Milliseconds with three significant decimals below 10 ms, one above. */
    private static String millis(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, value < 10 ? "%.3f" : "%.1f", value);
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
