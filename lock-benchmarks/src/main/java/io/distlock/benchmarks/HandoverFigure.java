package io.distlock.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The handover latency of one implementation on one store, from the samples of all its rounds.
 *
 * @param db the database id, or {@code redis}
 * @param impl the implementation id
 * @param waiters threads waiting at each release
 * @param p50Millis the median handover, in milliseconds, over all rounds' samples
 * @param p99Millis the 99th percentile, in milliseconds
 * @param samples how many handovers were sampled
 * @param timeouts waits that ran out
 * @param roundP50Millis each round's median, in order, for ratios taken round by round
 */
record HandoverFigure(String db, String impl, int waiters, double p50Millis, double p99Millis, int samples,
        int timeouts, List<Double> roundP50Millis) {

    /**
     * Pools the rounds of one figure.
     *
     * @param db the store
     * @param impl the implementation id
     * @param rounds each round's result
     * @return the figure
     */
    static HandoverFigure of(String db, String impl, List<HandoverRun.Result> rounds) {
        long[] all = new long[0];
        List<Double> roundP50 = new ArrayList<>();
        int timeouts = 0;
        for (HandoverRun.Result round : rounds) {
            long[] samples = round.samplesNanos().clone();
            Arrays.sort(samples);
            roundP50.add(percentile(samples, 50) / 1e6);
            long[] merged = Arrays.copyOf(all, all.length + samples.length);
            System.arraycopy(samples, 0, merged, all.length, samples.length);
            all = merged;
            timeouts += round.timeouts();
        }
        Arrays.sort(all);
        return new HandoverFigure(db, impl, HandoverRun.WAITERS, percentile(all, 50) / 1e6, percentile(all, 99) / 1e6,
                all.length, timeouts, List.copyOf(roundP50));
    }

    /**
     * The ratio of this figure's median to another's, taken round by round and then the median of the rounds; with
     * different round counts, the ratio of the medians.
     *
     * @param other the figure to divide by, such as Redisson's
     * @return the ratio, NaN without samples
     */
    double p50RatioTo(HandoverFigure other) {
        if (roundP50Millis.size() != other.roundP50Millis.size()) {
            return other.p50Millis > 0 ? p50Millis / other.p50Millis : Double.NaN;
        }
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < roundP50Millis.size(); i++) {
            double mine = roundP50Millis.get(i);
            double theirs = other.roundP50Millis.get(i);
            if (theirs > 0 && !Double.isNaN(mine)) {
                ratios.add(mine / theirs);
            }
        }
        return ratios.isEmpty() ? Double.NaN : Measurement.median(ratios);
    }

    /** Nearest-rank percentile of sorted values; NaN when there are none. */
    private static double percentile(long[] sorted, double percent) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(percent / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
