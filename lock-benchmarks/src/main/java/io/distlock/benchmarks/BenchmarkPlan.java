package io.distlock.benchmarks;

import java.util.List;

/**
 * How long and how widely to measure. On a small machine shared with other work, throughput drifts by more than the
 * differences being measured, and the database servers' disks are shared too. So every figure is measured in
 * interleaved rounds: each round runs every implementation for a few seconds, starting with the next one each time,
 * and ratios are taken within a round (figures seconds apart) before the rounds' median is reported. Everything runs
 * in one JVM, warmed up once per database before the first round, so that short rounds stay cheap.
 *
 * @param quick whether this is the short smoke run
 * @param warmupIterations warm-up iterations per round
 * @param iterations measured iterations per round
 * @param iterationSeconds seconds per iteration
 * @param prewarmSeconds seconds each implementation runs, unmeasured, before a database's first round
 * @param goalRounds rounds for the figures a goal is judged on
 * @param otherRounds rounds for the other figures
 * @param uncontendedThreads thread counts of the uncontended cycle
 * @param contendedThreads thread counts of the contended cycle
 * @param aspectThreads thread counts of the aspect comparison
 * @param watchdogLeases lease counts of the watchdog round
 * @param handoverRounds interleaved rounds of the handover scenario
 * @param handoverWarmupMillis milliseconds each handover figure runs, per round, before it is sampled
 * @param handoverMillis milliseconds each handover figure is sampled per round
 * @param heapLeases leases held for the heap figure
 */
public record BenchmarkPlan(boolean quick, int warmupIterations, int iterations, int iterationSeconds,
        int prewarmSeconds, int goalRounds, int otherRounds, List<Integer> uncontendedThreads,
        List<Integer> contendedThreads, List<Integer> aspectThreads, List<Integer> watchdogLeases,
        int handoverRounds, int handoverWarmupMillis, int handoverMillis, int heapLeases) {

    /** Under five minutes for all three databases: one one-second iteration per figure. */
    public static final BenchmarkPlan QUICK = new BenchmarkPlan(true, 0, 1, 1, 4, 1, 1, List.of(1, 4), List.of(4),
            List.of(1), List.of(1_000, 10_000), 1, 500, 2_000, 10_000);

    /** The figures for docs/benchmarks.md. */
    public static final BenchmarkPlan FULL = new BenchmarkPlan(false, 2, 3, 1, 4, 5, 2, List.of(1, 4, 16),
            List.of(4, 16), List.of(1), List.of(1_000, 10_000), 3, 1_000, 5_000, 10_000);

    /** Stores on which the uncontended goals are judged. */
    static final List<String> GOAL_DATABASES = List.of("postgresql", "mariadb", "h2", "redis");

    /** Thread counts at which the uncontended goals are judged. */
    static final List<Integer> GOAL_THREADS = List.of(1, 4);

    /**
     * How many interleaved rounds measure a figure.
     *
     * @param scenario the scenario
     * @param db the database id
     * @param threads the thread count
     * @return {@link #goalRounds()} for figures a goal is judged on, else {@link #otherRounds()}
     */
    public int rounds(String scenario, String db, int threads) {
        boolean goal = switch (scenario) {
            case "uncontended" -> GOAL_DATABASES.contains(db) && GOAL_THREADS.contains(threads);
            case "aspect" -> true;
            case "contended" -> threads == 4;
            default -> false;
        };
        return goal ? goalRounds : otherRounds;
    }

    /**
     * Keeps only the given thread counts.
     *
     * @param threads the thread counts to keep, or {@code null} for all
     * @return the narrowed plan
     */
    public BenchmarkPlan onlyThreads(List<Integer> threads) {
        if (threads == null) {
            return this;
        }
        return new BenchmarkPlan(quick, warmupIterations, iterations, iterationSeconds, prewarmSeconds, goalRounds,
                otherRounds, uncontendedThreads.stream().filter(threads::contains).toList(),
                contendedThreads.stream().filter(threads::contains).toList(),
                aspectThreads.stream().filter(threads::contains).toList(), watchdogLeases, handoverRounds,
                handoverWarmupMillis, handoverMillis, heapLeases);
    }

    /**
     * Sets the number of rounds.
     *
     * @param rounds rounds for every figure, or {@code null} to keep the plan's
     * @return the changed plan
     */
    public BenchmarkPlan withRounds(Integer rounds) {
        if (rounds == null) {
            return this;
        }
        return new BenchmarkPlan(quick, warmupIterations, iterations, iterationSeconds, prewarmSeconds, rounds, rounds,
                uncontendedThreads, contendedThreads, aspectThreads, watchdogLeases, rounds, handoverWarmupMillis,
                handoverMillis, heapLeases);
    }

    /** @return a description for the report */
    public String describe() {
        return "one JVM, each implementation warmed up for " + prewarmSeconds + " s per database before measuring; "
                + "per round and figure " + (warmupIterations > 0 ? warmupIterations + " × " + iterationSeconds
                        + " s warm-up and " : "") + iterations + " × " + iterationSeconds + " s measurement; "
                + goalRounds + " interleaved round(s) for the figures goals are judged on (uncontended and contended "
                + "at the goals' thread counts, and the aspect), " + otherRounds + " for the others; handover: "
                + handoverRounds + " interleaved round(s) of every implementation on every store, each "
                + handoverWarmupMillis + " ms unsampled and then " + handoverMillis + " ms sampled";
    }
}
