package io.distlock.torture;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.distlock.core.SlotRun;
import io.distlock.testsupport.TestDatabase;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The slots checker on hand-made records in an embedded H2 database: a clean run passes and ends with the SLOTS line,
 * and each kind of violation the slots workload exists to catch fails it.
 */
class SlotCheckerTests {

    private static final Instant T0 = Instant.parse("2026-05-01T10:00:00Z");

    /** An at-most-once job and an at-least-once job, as {@link SlotWork#policy} assigns them. */
    private static final String AT_MOST_ONCE = TortureSchema.jobName(0);

    private static final String AT_LEAST_ONCE = TortureSchema.jobName(2);

    private HikariDataSource dataSource;

    private final ByteArrayOutputStream output = new ByteArrayOutputStream();

    @BeforeEach
    void createTables() throws SQLException {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:h2:mem:slot-checker-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        config.setUsername("sa");
        config.setPassword("");
        dataSource = new HikariDataSource(config);
        TortureSchema.resetSlots(dataSource, TestDatabase.H2);
    }

    @AfterEach
    void closeDataSource() {
        dataSource.close();
    }

    @Test
    void cleanRunPassesAndEndsWithTheSlotsLine() throws SQLException {
        // Slots 0, 2 and 6 s of the at-most-once job ran, 4 s was missed; the run of 6 s was killed and recorded crashed.
        run(AT_MOST_ONCE, 0, 1, "w0-1", 5, 0, 300L, "SUCCEEDED");
        run(AT_MOST_ONCE, 2, 1, "w1-2", 6, 2000, 2100L, "SUCCEEDED");
        run(AT_MOST_ONCE, 6, 1, "w0-1", 8, 6000, null, "CRASHED");
        // The at-least-once job's slot 2 s crashed and ran again, once, while the first run never finished.
        run(AT_LEAST_ONCE, 2, 1, "w0-1", 7, 2000, null, "CRASHED");
        run(AT_LEAST_ONCE, 2, 2, "w1-2", 9, 4500, 4700L, "SUCCEEDED");
        FaultLog faults = new FaultLog();
        faults.add(new FaultLog.Kill("w0-1", 1, T0.plusMillis(2200), List.of()));

        SlotChecker.Verdict verdict = check(Set.of(Fault.KILL), faults, worker(1, -2500,
                T0 + " EVENT MISSED torture-slot-0 first=" + T0.plusSeconds(4).toEpochMilli() + " last="
                        + T0.plusSeconds(4).toEpochMilli() + " count=1"), worker(2, 1800));

        assertThat(verdict.passed()).as(output()).isTrue();
        assertThat(verdict.line())
                .isEqualTo("SLOTS db=h2 slots=5 executed=4 duplicates=0 missed=1 crashed=2 rerun=1 untold=0");
        assertThat(output()).endsWith(verdict.line() + System.lineSeparator());
        assertThat(output()).contains("torture-slot-0 (at most once): 4 slots, 3 executed, 1 missed, 0 duplicates")
                .contains("slot clocks offset from -2.5 s to +1.8 s");
    }

    @Test
    void aSlotThatNeverStartedAndThatNoClaimToldMissedFails() throws SQLException {
        // Slot 2 s of the at-most-once job never started, and no worker was told it was missed.
        run(AT_MOST_ONCE, 0, 1, "w0-1", 5, 0, 300L, "SUCCEEDED");
        run(AT_MOST_ONCE, 4, 1, "w1-2", 6, 4000, 4100L, "SUCCEEDED");

        SlotChecker.Verdict verdict = check(Set.of(), new FaultLog(), worker(1, 0), worker(2, 0));

        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.untold()).isOne();
        assertThat(output()).contains("FAIL every slot was executed, or told missed or claimed (1 untold)")
                .contains("untold: torture-slot-0 slot " + T0.plusSeconds(2)).contains("4 were refused as too early");
    }

    @Test
    void anAtMostOnceSlotStartedTwiceIsADuplicateAndFails() throws SQLException {
        run(AT_MOST_ONCE, 0, 1, "w0-1", 5, 0, null, "CRASHED");
        run(AT_MOST_ONCE, 0, 2, "w1-2", 6, 2500, 2600L, "SUCCEEDED");

        SlotChecker.Verdict verdict = check(Set.of(), new FaultLog(), worker(1, 0), worker(2, 0));

        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.duplicates()).isOne();
        assertThat(verdict.line()).contains(" duplicates=1 ");
        assertThat(output()).contains("FAIL duplicates=0").contains("duplicate: torture-slot-0 slot " + T0);
    }

    @Test
    void anAtLeastOnceSlotRunAgainAfterItsFirstRunFinishedFails() throws SQLException {
        run(AT_LEAST_ONCE, 0, 1, "w0-1", 5, 0, 300L, "SUCCEEDED");
        run(AT_LEAST_ONCE, 0, 2, "w1-2", 6, 1000, 1100L, "SUCCEEDED");

        SlotChecker.Verdict verdict = check(Set.of(), new FaultLog(), worker(1, 0), worker(2, 0));

        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.rerunViolations()).isOne();
        assertThat(output()).contains("the slot history recorded the first finished at");
    }

    @Test
    void aFirstRunWhoseWorkEndedButWhoseFinishTheStoreNeverRecordedMayRunAgain() throws SQLException {
        // Token 5's work ended at 300 ms, then its holder stalled past its lease before the library recorded the
        // finish: the store still had the run unfinished when token 6 claimed the slot again at 2.5 s.
        start(AT_LEAST_ONCE, 0, 1, "w0-1", 5, 0, 300L);
        claim(AT_LEAST_ONCE, 0, 1, "w0-1", 5, 0, null, "CRASHED");
        run(AT_LEAST_ONCE, 0, 2, "w1-2", 6, 2500, 2600L, "SUCCEEDED");

        SlotChecker.Verdict verdict = check(Set.of(), new FaultLog(), worker(1, 0), worker(2, 0));

        assertThat(verdict.passed()).as(output()).isTrue();
        assertThat(verdict.rerun()).isOne();
    }

    @Test
    void aFirstRunPausedBeforeItRecordedItsStartIsNoViolationOfTheReRun() throws SQLException {
        // Claimed by token 5 at 0 s, paused before its record, which it wrote at 4.5 s; re-run by token 6 at 3 s.
        run(AT_LEAST_ONCE, 0, 1, "w0-1", 5, 4500, 4800L, "LOST");
        run(AT_LEAST_ONCE, 0, 2, "w1-2", 6, 3000, 3100L, "SUCCEEDED");

        SlotChecker.Verdict verdict = check(Set.of(Fault.PAUSE), pausedAt(1), worker(1, 0), worker(2, 0));

        assertThat(verdict.passed()).as(output()).isTrue();
        assertThat(verdict.rerun()).isOne();
    }

    @Test
    void aReRunUnderASmallerTokenFails() throws SQLException {
        run(AT_LEAST_ONCE, 0, 1, "w0-1", 6, 0, null, "CRASHED");
        run(AT_LEAST_ONCE, 0, 2, "w1-2", 5, 3000, 3100L, "SUCCEEDED");

        assertThat(check(Set.of(), new FaultLog(), worker(1, 0), worker(2, 0)).rerunViolations()).isOne();
    }

    @Test
    void anAtLeastOnceSlotStartedThreeTimesFails() throws SQLException {
        run(AT_LEAST_ONCE, 0, 1, "w0-1", 5, 0, null, "CRASHED");
        run(AT_LEAST_ONCE, 0, 2, "w1-2", 6, 2500, null, "CRASHED");
        start(AT_LEAST_ONCE, 0, 3, "w0-3", 7, 5000, null);

        SlotChecker.Verdict verdict = check(Set.of(), new FaultLog(), worker(1, 0), worker(2, 0));

        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.rerunViolations()).isOne();
    }

    @Test
    void aRunStartedWithoutAClaimInTheSlotHistoryFails() throws SQLException {
        run(AT_MOST_ONCE, 0, 1, "w0-1", 5, 0, 300L, "SUCCEEDED");
        start(AT_MOST_ONCE, 2, 1, "w1-2", 6, 2000, 2100L);

        SlotChecker.Verdict verdict = check(Set.of(), new FaultLog(), worker(1, 0), worker(2, 0));

        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.unclaimedStarts()).isOne();
    }

    @Test
    void startsOfSlotsOlderThanTheRunsTheHistoryKeepsAreNotCheckedAgainstIt() throws SQLException {
        // The library kept the newest runs of the job only; the start of slot 0 s lost its claim to that pruning.
        start(AT_MOST_ONCE, 0, 1, "w0-1", 1, 0, 300L);
        for (int slot = 1; slot <= SlotRun.KEPT_PER_JOB; slot++) {
            run(AT_MOST_ONCE, slot * 2L, 1, "w0-1", slot + 1L, slot * 2000L, slot * 2000L + 300, "SUCCEEDED");
        }

        SlotChecker.Verdict verdict = check(Set.of(), new FaultLog(), worker(1, 0));

        assertThat(verdict.passed()).as(output()).isTrue();
        assertThat(verdict.unclaimedStarts()).isZero();
        assertThat(output()).contains("1 starts of slots older than the runs the slot history keeps (50 a job)");
    }

    @Test
    void anUnexpectedExceptionOrAMissingFaultFails() throws SQLException {
        run(AT_MOST_ONCE, 0, 1, "w0-1", 5, 0, 300L, "SUCCEEDED");
        WorkerOutcome unexpected = new WorkerOutcome("w1-2", 2, 0, 0, false,
                List.of(T0 + " EVENT UNEXPECTED torture-slot-0: java.lang.NullPointerException"));

        assertThat(check(Set.of(), new FaultLog(), worker(1, 0), unexpected).passed()).isFalse();
        assertThat(check(Set.of(Fault.PAUSE), new FaultLog(), worker(1, 0)).passed()).isFalse();
    }

    @Test
    void theSkewFaultDoesNotApplyToTheSlotsWorkload() {
        assertThatIllegalArgumentException().isThrownBy(() -> options(Set.of(Fault.SKEW)))
                .withMessageContaining("--faults skew does not apply to --workload slots");
        assertThat(TortureOptions.parse(Args.parse(new String[] {"--db", "h2", "--workload", "slots"}),
                Path.of("target")).faults()).containsExactlyInAnyOrder(Fault.KILL, Fault.PAUSE);
    }

    private SlotChecker.Verdict check(Set<Fault> faults, FaultLog log, WorkerOutcome... workers) throws SQLException {
        output.reset();
        return new SlotChecker(dataSource, options(faults), new PrintStream(output, true, StandardCharsets.UTF_8))
                .check(log, List.of(workers));
    }

    private static FaultLog pausedAt(long pid) {
        FaultLog faults = new FaultLog();
        faults.add(new FaultLog.Pause("w0-" + pid, pid, T0.plusMillis(100), T0.plusMillis(4400)));
        return faults;
    }

    private static TortureOptions options(Set<Fault> faults) {
        return new TortureOptions(TestDatabase.H2, 2, Duration.ofSeconds(40), faults, 3, 3, Duration.ofSeconds(2),
                Path.of("target"), Workload.SLOTS);
    }

    private String output() {
        return output.toString(StandardCharsets.UTF_8);
    }

    private static WorkerOutcome worker(long pid, long offsetMillis, String... moreLines) {
        List<String> lines = new java.util.ArrayList<>(List.of(moreLines));
        lines.add(T0 + " EVENT DONE ran=1 lost=0 locked=0 already_claimed=1 too_early=2 db_errors=0");
        return new WorkerOutcome("w0-" + pid, pid, offsetMillis, 0, false, lines);
    }

    /** A start recorded by a worker, and its claim in the slot history with the same finish, if any. */
    private void run(String job, long slotSeconds, int run, String worker, long token, long startMillis,
            @Nullable Long finishMillis, String outcome) throws SQLException {
        start(job, slotSeconds, run, worker, token, startMillis, finishMillis);
        claim(job, slotSeconds, run, worker, token, startMillis, finishMillis, outcome);
    }

    /** A claim in the slot history, with the finish the library recorded, if any. */
    private void claim(String job, long slotSeconds, int run, String worker, long token, long startMillis,
            @Nullable Long finishMillis, String outcome) throws SQLException {
        update("INSERT INTO " + TortureSchema.SLOT_LOCKS + "_slots (job, slot_at, run_no, owner, token, started_at, "
                + "finished_at, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", job,
                T0.plusSeconds(slotSeconds).toEpochMilli(), run, worker + ":x", token, at(startMillis),
                finishMillis == null ? null : at(finishMillis), outcome);
    }

    /** A start recorded by a worker only. */
    private void start(String job, long slotSeconds, int run, String worker, long token, long startMillis,
            @Nullable Long finishMillis) throws SQLException {
        update("INSERT INTO " + TortureSchema.SLOT_RUNS + " (job, policy, slot_at, run_no, worker, worker_pid, token, "
                + "started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", job, SlotWork.policy(
                        Integer.parseInt(job.substring(job.lastIndexOf('-') + 1))).name(),
                T0.plusSeconds(slotSeconds).toEpochMilli(), run, worker, 1L, token, at(startMillis),
                finishMillis == null ? null : at(finishMillis));
    }

    private static OffsetDateTime at(long millis) {
        return T0.plusMillis(millis).atOffset(ZoneOffset.UTC);
    }

    private void update(String sql, @Nullable Object... args) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                statement.setObject(i + 1, args[i]);
            }
            statement.executeUpdate();
        }
    }
}
