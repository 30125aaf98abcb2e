package io.distlock.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.distlock.testsupport.TestDatabase;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs the whole comparison: statement and error counts, the JMH scenarios and the held-lease heap on every reachable
 * database, the lock cycle on Redis, then the handover scenario over every store at once; prints JMH's table and the
 * {@code STATEMENTS}, {@code ERRORS}, {@code WATCHDOG}, {@code HEAP}, {@code RATIO} and {@code HANDOVER} lines and
 * the goals, and writes the JSON results and the Markdown report. {@code scripts/bench.sh} is the usual way in; run with {@code --help} for the options.
 */
public final class BenchmarkMain {

    private static final String USAGE = """
            usage: java -jar lock-benchmarks/target/benchmarks.jar [options]
              --quick                 short run (one 1 s iteration per figure)
              --db h2|postgresql|mariadb|redis|all   stores, comma-separated (default all); redis runs the cycle
                                      and the handover of distlock's Redis store, Redisson and Spring
                                      Integration's RedisLockRegistry (Redisson, the handover's anchor, runs in
                                      every handover that Redis answers)
              --scenario LIST         uncontended,contended,aspect,watchdog,heap,handover (default all)
              --threads LIST          keep only these thread counts, e.g. 1,4
              --rounds N              interleaved rounds for every figure (full run: 5 for goal figures, 2 else)
              --impl LIST             keep only these implementations (distlock, and Redisson in the
                                      handover, are always kept), e.g. shedlock,distlock-remote
              --out DIR               where JSON results go (default lock-benchmarks/target): benchmark-results.json
                                      and jmh/ for a full run of everything, -quick or -partial suffixed else
              --doc FILE              the Markdown report to write (default: docs/benchmarks.md for a full run
                                      of everything, else DIR/benchmarks-quick.md or DIR/benchmarks-partial.md)
              --command TEXT          the command to name in the report
              --prof NAME             JMH profiler, repeatable (stack, gc, jfr, …)
            """;

    private BenchmarkMain() {
    }

    public static void main(String[] args) throws Exception {
        Arguments arguments = Arguments.parse(args);
        if (arguments.help) {
            System.out.print(USAGE);
            return;
        }
        BenchmarkPlan plan = (arguments.quick ? BenchmarkPlan.QUICK : BenchmarkPlan.FULL).onlyThreads(arguments.threads)
                .withRounds(arguments.rounds);
        Files.createDirectories(arguments.out.resolve(arguments.jmhDirectory()));
        BenchmarkReport report = new BenchmarkReport(plan, arguments.command);

        List<TestDatabase> databases = new ArrayList<>();
        for (TestDatabase db : arguments.databases) {
            String problem = db.problem();
            if (problem.isEmpty()) {
                databases.add(db);
                report.serverVersion(db, db.serverVersion());
            }
            else {
                System.out.println("NOTICE: " + db.id() + " at " + db.url() + " is unreachable (" + problem
                        + "): its benchmarks are skipped");
                report.skipped(db, problem);
            }
        }

        boolean handover = arguments.scenarios.contains("handover");
        boolean redis = false;
        if (handover || arguments.redis) {
            String problem = RedisServer.problem();
            if (problem.isEmpty()) {
                redis = true;
                report.serverVersion(RedisServer.ID, RedisServer.version());
            }
            else {
                System.out.println("NOTICE: Redis at " + RedisServer.url() + " is unreachable (" + problem + "): "
                        + (arguments.redis ? "its benchmarks, Redisson's handover anchor among them, are skipped"
                                : "Redisson's handover anchor is skipped"));
                report.skipped(RedisServer.ID, problem);
            }
        }

        List<RunResult> allResults = new ArrayList<>();
        for (TestDatabase db : databases) {
            List<String> impls = impls(arguments, db.id());
            if (arguments.scenarios.stream().anyMatch(List.of("uncontended", "contended", "aspect")::contains)) {
                prewarm(plan, db.id(), impls);
            }
            log("counting statements on " + db.id());
            for (String impl : impls) {
                report.add(StatementCounts.cycle(db, LockImplementation.byId(impl)));
            }
            allResults.addAll(cycles(arguments, plan, report, db.id(), impls));
            if (arguments.scenarios.contains("contended")) {
                log("counting the errors of the contended cycle on " + db.id() + " ("
                        + StatementCounts.CONTENDED_THREADS + " threads)");
                for (String impl : impls) {
                    report.add(StatementCounts.contended(db, LockImplementation.byId(impl)));
                }
            }
            if (arguments.scenarios.contains("aspect")) {
                report.add(AspectScenario.count(db));
                for (int threads : plan.aspectThreads()) {
                    allResults.addAll(run(arguments, plan, report, "aspect", db.id(), threads,
                            Map.of("impl", List.of("annotated", "programmatic")), AspectScenario.BENCHMARK_PATTERN));
                }
            }
            if (arguments.scenarios.contains("watchdog")) {
                for (int leases : plan.watchdogLeases()) {
                    report.add(StatementCounts.watchdogRound(db, leases));
                }
                allResults.addAll(run(arguments, plan, report, "watchdog", db.id(), 1,
                        Map.of("leases", plan.watchdogLeases().stream().map(String::valueOf).toList()),
                        WatchdogBenchmark.class.getName() + ".renewalRound$"));
            }
            if (arguments.scenarios.contains("heap")) {
                log("holding " + plan.heapLeases() + " leases kept alive on " + db.id());
                report.add(HeapScenario.measure(db, plan.heapLeases()));
            }
        }
        if (redis && arguments.redis
                && arguments.scenarios.stream().anyMatch(List.of("uncontended", "contended")::contains)) {
            List<String> impls = impls(arguments, RedisServer.ID);
            prewarm(plan, RedisServer.ID, impls);
            allResults.addAll(cycles(arguments, plan, report, RedisServer.ID, impls));
        }
        if (handover && (!databases.isEmpty() || redis)) {
            HandoverScenario.run(plan, databases, redis, arguments.redis && redis, arguments.impls)
                    .forEach(report::add);
        }

        System.out.println();
        System.out.println("JMH results:");
        ResultFormatFactory.getInstance(ResultFormatType.TEXT, System.out).writeOut(allResults);
        System.out.println();
        report.statementLines().forEach(System.out::println);
        report.errorLines().forEach(System.out::println);
        report.watchdogLines().forEach(System.out::println);
        report.heapLines().forEach(System.out::println);
        report.ratioLines().forEach(System.out::println);
        report.handoverLines().forEach(System.out::println);
        System.out.println();
        report.goals().forEach(goal -> System.out.println("GOAL " + goal.line()));

        Path json = arguments.out.resolve("benchmark-results" + arguments.suffix() + ".json");
        Files.writeString(json, report.toJson());
        Path doc = arguments.doc != null ? arguments.doc
                : arguments.quick ? arguments.out.resolve("benchmarks-quick.md")
                : arguments.complete() ? Path.of("docs/benchmarks.md") : arguments.out.resolve("benchmarks-partial.md");
        Files.createDirectories(doc.toAbsolutePath().getParent());
        Files.writeString(doc, report.toMarkdown());
        log("wrote " + json + ", JMH's own JSON under " + arguments.out.resolve(arguments.jmhDirectory()) + ", and "
                + doc);
    }

    /** The implementations to measure on a store: all that run there, or those asked for, and distlock. */
    private static List<String> impls(Arguments arguments, String store) {
        return LockImplementation.idsFor(store).stream()
                .filter(id -> arguments.impls == null || id.equals("distlock") || arguments.impls.contains(id))
                .toList();
    }

    /** The uncontended and contended cycle on one store, as far as they were asked for. */
    private static List<RunResult> cycles(Arguments arguments, BenchmarkPlan plan, BenchmarkReport report,
            String store, List<String> impls) throws RunnerException {
        List<RunResult> results = new ArrayList<>();
        if (arguments.scenarios.contains("uncontended")) {
            for (int threads : plan.uncontendedThreads()) {
                results.addAll(run(arguments, plan, report, "uncontended", store, threads,
                        Map.of("impl", impls), CycleBenchmark.class.getName() + ".uncontended$"));
            }
        }
        if (arguments.scenarios.contains("contended")) {
            for (int threads : plan.contendedThreads()) {
                results.addAll(run(arguments, plan, report, "contended", store, threads,
                        Map.of("impl", impls), CycleBenchmark.class.getName() + ".contended$"));
            }
        }
        return results;
    }

    private static void prewarm(BenchmarkPlan plan, String store, List<String> impls) throws RunnerException {
        log("warming up every implementation on " + store + " (" + plan.prewarmSeconds() + " s each, not measured)");
        new Runner(new OptionsBuilder()
                .include(CycleBenchmark.class.getName() + ".uncontended$")
                .param("db", store)
                .param("impl", impls.toArray(String[]::new))
                .threads(1)
                .forks(0)
                .warmupIterations(0)
                .measurementIterations(plan.prewarmSeconds())
                .measurementTime(TimeValue.seconds(1))
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT)
                .build()).run();
    }

    private static Collection<RunResult> run(Arguments arguments, BenchmarkPlan plan, BenchmarkReport report,
            String scenario, String store, int threads, Map<String, List<String>> params, String include)
            throws RunnerException {
        int rounds = plan.rounds(scenario, store, threads);
        List<RunResult> all = new ArrayList<>();
        Map<String, List<RunResult>> byFigure = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            log(scenario + " on " + store + " with " + threads + " thread(s)"
                    + (rounds > 1 ? ", round " + (round + 1) + " of " + rounds : ""));
            Path json = arguments.out.resolve(arguments.jmhDirectory()).resolve(scenario + "-" + store + "-t" + threads
                    + (rounds > 1 ? "-r" + (round + 1) : "") + ".json");
            ChainedOptionsBuilder options = new OptionsBuilder()
                    .include(include)
                    .param("db", store)
                    .threads(threads)
                    .forks(0)
                    .warmupIterations(plan.warmupIterations())
                    .warmupTime(TimeValue.seconds(plan.iterationSeconds()))
                    .measurementIterations(plan.iterations())
                    .measurementTime(TimeValue.seconds(plan.iterationSeconds()))
                    .shouldFailOnError(true)
                    .verbosity(VerboseMode.NORMAL)
                    .result(json.toString())
                    .resultFormat(ResultFormatType.JSON);
            if (scenario.equals("aspect") && plan.warmupIterations() == 0) {
                // The Spring context is new in every trial: unwarmed, whichever call runs first would pay for it.
                options.warmupIterations(1);
            }
            if (scenario.equals("watchdog")) {
                options.warmupIterations(plan.quick() ? 0 : 1).measurementIterations(plan.quick() ? 1 : 3)
                        .warmupTime(TimeValue.seconds(2)).measurementTime(TimeValue.seconds(2));
            }
            // Each round starts with the next implementation, so that none always runs first or last.
            int shift = round;
            params.forEach((name, values) -> options.param(name, rotate(values, shift).toArray(String[]::new)));
            for (String profiler : arguments.profilers) {
                options.addProfiler(profiler);
            }
            for (RunResult result : new Runner(options.build()).run()) {
                all.add(result);
                byFigure.computeIfAbsent(Measurement.key(result), key -> new ArrayList<>()).add(result);
            }
        }
        byFigure.values().forEach(results -> report.add(Measurement.pool(scenario, results)));
        return all;
    }

    private static List<String> rotate(List<String> values, int shift) {
        List<String> rotated = new ArrayList<>(values);
        Collections.rotate(rotated, -(shift % Math.max(1, values.size())));
        return rotated;
    }

    private static void log(String message) {
        System.out.println("[bench] " + message);
    }

    /** The command line. */
    private static final class Arguments {

        boolean help;

        boolean quick;

        List<TestDatabase> databases = Arrays.asList(TestDatabase.values());

        /** Whether Redis was asked for: distlock's Redis store joins the handover. */
        boolean redis = true;

        static final List<String> SCENARIOS = List.of("uncontended", "contended", "aspect", "watchdog", "heap",
                "handover");

        List<String> scenarios = SCENARIOS;

        List<Integer> threads;

        List<String> impls;

        Integer rounds;

        Path out = Path.of("lock-benchmarks/target");

        Path doc;

        String command = "scripts/bench.sh";

        List<String> profilers = new ArrayList<>();

        /** @return {@code ""} for the complete run, else {@code -quick} or {@code -partial}: keeps its files apart */
        String suffix() {
            return quick ? "-quick" : complete() ? "" : "-partial";
        }

        /** @return the directory, under {@link #out}, of JMH's own JSON files */
        String jmhDirectory() {
            return "jmh" + suffix();
        }

        /** @return whether this is the run docs/benchmarks.md describes: every database, scenario and figure */
        boolean complete() {
            return !quick && databases.size() == TestDatabase.values().length && redis
                    && scenarios.containsAll(SCENARIOS)
                    && threads == null && impls == null && rounds == null && profilers.isEmpty();
        }

        static Arguments parse(String[] args) {
            Arguments parsed = new Arguments();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                switch (arg) {
                    case "--help", "-h" -> parsed.help = true;
                    case "--quick" -> parsed.quick = true;
                    case "--db" -> {
                        List<String> values = Arrays.stream(value(args, ++i, arg).split(",")).map(String::strip)
                                .toList();
                        boolean all = values.contains("all");
                        parsed.redis = all || values.contains(RedisServer.ID);
                        parsed.databases = all ? Arrays.asList(TestDatabase.values())
                                : values.stream().filter(v -> !v.equals(RedisServer.ID)).map(TestDatabase::byId)
                                        .toList();
                    }
                    case "--scenario" -> {
                        parsed.scenarios = List.of(value(args, ++i, arg).split(","));
                        if (!SCENARIOS.containsAll(parsed.scenarios)) {
                            throw new IllegalArgumentException("Unknown scenario in '" + args[i] + "'; expected "
                                    + String.join(",", SCENARIOS));
                        }
                    }
                    case "--threads" -> parsed.threads = Arrays.stream(value(args, ++i, arg).split(","))
                            .map(Integer::valueOf).toList();
                    case "--rounds" -> parsed.rounds = Integer.valueOf(value(args, ++i, arg));
                    case "--impl" -> parsed.impls = List.of(value(args, ++i, arg).split(","));
                    case "--out" -> parsed.out = Path.of(value(args, ++i, arg));
                    case "--doc" -> parsed.doc = Path.of(value(args, ++i, arg));
                    case "--command" -> parsed.command = value(args, ++i, arg);
                    case "--prof" -> parsed.profilers.add(value(args, ++i, arg));
                    default -> throw new IllegalArgumentException("Unknown argument '" + arg + "'\n" + USAGE);
                }
            }
            return parsed;
        }

        private static String value(String[] args, int index, String option) {
            if (index >= args.length) {
                throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
            }
            return args[index];
        }
    }
}
