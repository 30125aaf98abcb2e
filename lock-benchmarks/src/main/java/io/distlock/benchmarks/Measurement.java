package io.distlock.benchmarks;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.ListStatistics;
import org.openjdk.jmh.util.Statistics;

/**
 * One figure, keyed the way the report needs it, from the JMH results of its rounds.
 *
 * @param db the database id
 * @param scenario {@code uncontended}, {@code contended}, {@code aspect} or {@code watchdog}
 * @param impl the implementation id ({@code annotated}/{@code programmatic} in the aspect scenario)
 * @param threads benchmark threads
 * @param leases held leases (watchdog only, else 0)
 * @param score the median of the rounds' primary scores: operations per second, or milliseconds per round for the
 *     watchdog
 * @param error the 99.9% confidence half-width over all the rounds' iterations, NaN with fewer than three
 * @param unit the score's unit
 * @param acquired the median of the rounds' successful acquisitions per second (contended only, else NaN)
 * @param roundScores each round's score, in order
 * @param roundAcquired each round's acquisitions per second, in order (contended only, else empty)
 */
public record Measurement(String db, String scenario, String impl, int threads, int leases, double score,
        double error, String unit, double acquired, List<Double> roundScores, List<Double> roundAcquired) {

    /**
     * Pools the JMH results of one figure's rounds.
     *
     * @param scenario the scenario it belongs to
     * @param results the results of the same benchmark and parameters, one per round, in order
     * @return the measurement
     */
    static Measurement pool(String scenario, List<RunResult> results) {
        RunResult first = results.get(0);
        var params = first.getParams();
        String impl = params.getParam("impl");
        String leases = params.getParam("leases");
        String benchmark = params.getBenchmark();
        String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
        String name = impl != null ? impl : (scenario.equals("aspect") ? method : "distlock");
        ListStatistics all = new ListStatistics();
        List<Double> scores = new ArrayList<>();
        List<Double> acquired = new ArrayList<>();
        for (RunResult result : results) {
            addAll(all, result.getPrimaryResult().getStatistics());
            scores.add(result.getPrimaryResult().getScore());
            Result<?> secondary = result.getSecondaryResults().get("acquired");
            if (secondary != null) {
                acquired.add(secondary.getScore());
            }
        }
        double error = all.getN() > 2 ? all.getMeanErrorAt(0.999) : Double.NaN;
        return new Measurement(params.getParam("db"), scenario, name, params.getThreads(),
                leases != null ? Integer.parseInt(leases) : 0, median(scores), error,
                first.getPrimaryResult().getScoreUnit(), acquired.isEmpty() ? Double.NaN : median(acquired),
                List.copyOf(scores), List.copyOf(acquired));
    }

    /**
     * A key that tells one figure's results apart from another's within one JMH run.
     *
     * @param result a JMH result
     * @return the benchmark with its parameters
     */
    static String key(RunResult result) {
        var params = result.getParams();
        return params.getBenchmark() + params.getParam("impl") + "/" + params.getParam("leases");
    }

    /**
     * The figure RATIO lines compare: successful acquisitions per second when contended, else the score.
     *
     * @return operations per second
     */
    public double opsPerSecond() {
        return scenario.equals("contended") ? acquired : score;
    }

    /**
     * The per-round figures RATIO lines compare.
     *
     * @return one figure per round
     */
    public List<Double> roundOpsPerSecond() {
        return scenario.equals("contended") ? roundAcquired : roundScores;
    }

    /**
     * The ratio of this figure to another, taken round by round (figures measured seconds apart) and then the median
     * of the rounds; with different round counts, the ratio of the medians.
     *
     * @param other the figure to divide by
     * @return the ratio, NaN when the other figure is zero
     */
    public double ratioTo(Measurement other) {
        List<Double> ratios = roundRatiosTo(other);
        return ratios.isEmpty() ? Double.NaN : median(ratios);
    }

    /**
     * The per-round ratios of this figure to another; with different round counts, the one ratio of the medians.
     *
     * @param other the figure to divide by
     * @return the ratios, empty when the other figure is zero
     */
    public List<Double> roundRatiosTo(Measurement other) {
        List<Double> mine = roundOpsPerSecond();
        List<Double> theirs = other.roundOpsPerSecond();
        if (mine.size() != theirs.size() || mine.isEmpty()) {
            return other.opsPerSecond() > 0 ? List.of(opsPerSecond() / other.opsPerSecond()) : List.of();
        }
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < mine.size(); i++) {
            if (theirs.get(i) > 0) {
                ratios.add(mine.get(i) / theirs.get(i));
            }
        }
        return ratios;
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static void addAll(ListStatistics target, Statistics source) {
        Iterator<Map.Entry<Double, Long>> raw = source.getRawData();
        while (raw.hasNext()) {
            Map.Entry<Double, Long> entry = raw.next();
            for (long i = 0; i < entry.getValue(); i++) {
                target.addValue(entry.getKey());
            }
        }
    }
}
