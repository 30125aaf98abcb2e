package io.distlock.benchmarks;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The handover harness and its figures, on an in-process lock: what is sampled and how it is summed up. No speed is
 * asserted.
 */
class HandoverTests {

    @Test
    void everyAcquisitionAfterTheWarmupIsAHandoverFromAnotherThread() throws InterruptedException {
        ReentrantLock lock = new ReentrantLock(true);
        int[] holders = new int[1];
        int[] most = new int[1];
        HandoverLock local = (resource, maxWait) -> {
            if (!lock.tryLock(maxWait.toMillis(), TimeUnit.MILLISECONDS)) {
                return null;
            }
            most[0] = Math.max(most[0], ++holders[0]);
            return () -> {
                holders[0]--;
                lock.unlock();
            };
        };
        HandoverSubject subject = new HandoverSubject() {
            @Override
            public HandoverLock lockFor(int thread) {
                return local;
            }

            @Override
            public void close() {
            }
        };

        HandoverRun.Result result = HandoverRun.run(subject, "r", Duration.ofMillis(50), Duration.ofMillis(300));

        assertThat(result.timeouts()).isZero();
        assertThat(result.samplesNanos()).isNotEmpty();
        assertThat(Arrays.stream(result.samplesNanos()).min().orElseThrow()).isPositive();
        assertThat(most[0]).isEqualTo(1);
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void percentilesAreNearestRankOverAllRoundsAndRatiosGoRoundByRound() {
        long[] first = new long[100];
        long[] second = new long[100];
        for (int i = 0; i < 100; i++) {
            first[i] = (i + 1) * 1_000_000L;
            second[i] = (i + 1) * 2_000_000L;
        }
        HandoverFigure figure = HandoverFigure.of("h2", "distlock",
                List.of(new HandoverRun.Result(first, 0), new HandoverRun.Result(second, 1)));
        HandoverFigure anchor = HandoverFigure.of("redis", "redisson",
                List.of(new HandoverRun.Result(new long[] {500_000L}, 0), new HandoverRun.Result(new long[] {4_000_000L}, 0)));

        assertThat(figure.samples()).isEqualTo(200);
        assertThat(figure.timeouts()).isEqualTo(1);
        assertThat(figure.roundP50Millis()).containsExactly(50.0, 100.0);
        // Pooled: 1..100 ms and 2..200 ms; the 100th of 200 sorted values is 67 ms, the 198th 196 ms.
        assertThat(figure.p50Millis()).isEqualTo(67.0);
        assertThat(figure.p99Millis()).isEqualTo(196.0);
        // Per round 50 / 0.5 = 100 and 100 / 4 = 25: the median of the two.
        assertThat(figure.p50RatioTo(anchor)).isEqualTo(62.5);
    }

    @Test
    void aFigureWithoutSamplesHasNoPercentiles() {
        HandoverFigure figure = HandoverFigure.of("h2", "distlock", List.of(new HandoverRun.Result(new long[0], 0)));

        assertThat(figure.p50Millis()).isNaN();
        assertThat(figure.samples()).isZero();
    }
}
