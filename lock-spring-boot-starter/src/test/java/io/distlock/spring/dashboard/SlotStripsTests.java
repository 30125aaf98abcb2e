package io.distlock.spring.dashboard;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.distlock.core.CrashPolicy;
import io.distlock.core.LockRecord;
import io.distlock.core.MissedSlotPolicy;
import io.distlock.core.SlotRun;
import io.distlock.core.SlotRunOutcome;
import io.distlock.core.SlotSchedule;
import io.distlock.spring.slot.SlotJobs.SlotJob;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job's strip: its runs, oldest first, with the slots no replica ran between them — missed, or skipped where a
 * catch-up ran only the latest — a long gap as one cell with its count, slots overdue since the latest run, and a run
 * still marked running whose holder's lease is gone shown crashed.
 */
class SlotStripsTests {

    private static final Instant T0 = Instant.parse("2026-05-01T10:00:00Z");

    private static final SlotSchedule EVERY_10S = SlotSchedule.fixedRate(Duration.ofSeconds(10));

    private final SlotStrips strips = new SlotStrips();

    private static SlotRun run(int slot, SlotRunOutcome outcome, long token) {
        Instant at = T0.plusSeconds(slot * 10L);
        return new SlotRun("report", at, 1, "replica-" + token + ":abcdefghijklmnop", token, at.plusMillis(5),
                outcome == SlotRunOutcome.RUNNING ? null : at.plusMillis(500), outcome);
    }

    private static SlotJob job(MissedSlotPolicy onMissed) {
        return new SlotJob("report", "Reports.report()", "fixed rate PT10S", EVERY_10S, CrashPolicy.AT_MOST_ONCE,
                onMissed);
    }

    private SlotStrips.JobRow row(MissedSlotPolicy policy, Instant now, List<LockRecord> locks, SlotRun... runs) {
        List<SlotRun> newestFirst = new ArrayList<>(List.of(runs));
        java.util.Collections.reverse(newestFirst);
        return strips.rows(List.of(job(policy)), new LockSnapshot(locks, newestFirst, now), now, false).get(0);
    }

    private static List<String> kinds(SlotStrips.JobRow row) {
        return row.cells().stream().map(cell -> cell.kind() + (cell.count() > 1 ? "x" + cell.count() : "")).toList();
    }

    @Test
    void gapsBetweenRunsAreMissedAndACatchUpSkipsAllButTheLatest() {
        Instant now = T0.plusSeconds(61);
        SlotRun[] runs = { run(0, SlotRunOutcome.SUCCEEDED, 1), run(1, SlotRunOutcome.CRASHED, 2),
                run(4, SlotRunOutcome.SUCCEEDED, 3), run(5, SlotRunOutcome.FAILED, 4), run(6, SlotRunOutcome.LOST, 5) };
        SlotStrips.JobRow skip = row(MissedSlotPolicy.SKIP, now, List.of(), runs);
        assertThat(kinds(skip)).containsExactly("succeeded", "crashed", "missed", "missed", "succeeded", "failed",
                "lost");
        assertThat(skip.missed()).isEqualTo(2);
        assertThat(skip.crashed()).isEqualTo(1);
        assertThat(skip.last().kind()).isEqualTo("lost");
        assertThat(skip.last().owner()).as("a fingerprint").isEqualTo("replica-5:abcd…");
        assertThat(skip.cells().get(2).slot()).isEqualTo(T0.plusSeconds(20).toString());
        assertThat(skip.nextFireAt()).isEqualTo(T0.plusSeconds(70).toString());

        SlotStrips.JobRow catchUp = row(MissedSlotPolicy.CATCH_UP, now, List.of(), runs);
        // The catch-up policy claimed the latest missed slot (40 s) as a run of its own: the two before it were left.
        assertThat(kinds(catchUp)).containsExactly("succeeded", "crashed", "skipped", "skipped", "succeeded", "failed",
                "lost");
        assertThat(catchUp.cells().get(3).note()).startsWith("Missed, and left unrun");
    }

    @Test
    void aLongGapIsOneCellWithItsCountAndSlotsOverdueSinceTheLatestRunAreMissed() {
        SlotStrips.JobRow row = row(MissedSlotPolicy.SKIP, T0.plusSeconds(10_000 + 36), List.of(),
                run(0, SlotRunOutcome.SUCCEEDED, 1), run(1000, SlotRunOutcome.SUCCEEDED, 2));
        // Slots 10,010 s, 10,020 s and 10,030 s are more than the grace of 5 s old; 10,040 s is not due yet.
        assertThat(kinds(row)).containsExactly("succeeded", "missedx999", "succeeded", "missed", "missed", "missed");
        SlotStrips.Cell gap = row.cells().get(1);
        assertThat(gap.slot()).isEqualTo(T0.plusSeconds(10).toString());
        assertThat(gap.lastSlot()).isEqualTo(T0.plusSeconds(9990).toString());
        assertThat(row.cells().get(3).overdue()).isTrue();
        assertThat(row.missed()).isEqualTo(1002);
    }

    @Test
    void aRunningRunWhoseLeaseIsGoneIsShownCrashedAndOneWhoseLeaseIsLiveRunning() {
        Instant now = T0.plusSeconds(8);
        SlotRun running = run(0, SlotRunOutcome.RUNNING, 7);
        assertThat(kinds(row(MissedSlotPolicy.SKIP, now, List.of(), running))).containsExactly("crashed");
        LockRecord live = new LockRecord("report", running.owner(), 7, T0, now.plusSeconds(20));
        assertThat(kinds(row(MissedSlotPolicy.SKIP, now, List.of(live), running))).containsExactly("running");
    }

    @Test
    void jobsOnlyTheHistoryNamesAreListedWithoutSchedule() {
        SlotRun other = new SlotRun("elsewhere", T0, 1, "x:abcdefghijklmnop", 3, T0, T0.plusSeconds(1),
                SlotRunOutcome.SUCCEEDED);
        List<SlotStrips.JobRow> rows = strips.rows(List.of(job(MissedSlotPolicy.SKIP)),
                new LockSnapshot(List.of(), List.of(other), T0), T0.plusSeconds(5), true);
        assertThat(rows).extracting(SlotStrips.JobRow::job).containsExactly("elsewhere", "report");
        assertThat(rows.get(0).declared()).isFalse();
        assertThat(rows.get(0).schedule()).isNull();
        assertThat(rows.get(0).cells().get(0).owner()).as("in full for an admin").isEqualTo("x:abcdefghijklmnop");
        assertThat(rows.get(1).cells()).isEmpty();
        assertThat(rows.get(1).last()).isNull();
    }
}
