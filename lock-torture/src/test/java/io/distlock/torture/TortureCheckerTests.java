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
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checker on hand-made records in an embedded H2 database: a clean run passes, and each kind of violation the
 * torture test exists to catch fails it.
 */
class TortureCheckerTests {

    private static final Instant T0 = Instant.parse("2026-05-01T10:00:00Z");

    private static final String LOCK = TortureSchema.lockName(0);

    private static final long PID_A = 101;

    private static final long PID_B = 202;

    private HikariDataSource dataSource;

    private final ByteArrayOutputStream output = new ByteArrayOutputStream();

    @BeforeEach
    void createTables() throws SQLException {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:h2:mem:checker-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        config.setUsername("sa");
        config.setPassword("");
        dataSource = new HikariDataSource(config);
        TortureSchema.reset(dataSource, TestDatabase.H2, 1);
    }

    @AfterEach
    void closeDataSource() {
        dataSource.close();
    }

    @Test
    void cleanRunPassesAndEndsWithTheTortureLine() throws SQLException {
        section(PID_A, 5, 0, 0, 100);
        section(PID_B, 6, 1, 150, 300);
        counter(2);
        accepted(PID_A, 5, 1, 110);
        accepted(PID_B, 6, 2, 310);
        ledgerHead(6, 2);
        fence(6);
        FaultLog faults = new FaultLog();
        faults.add(new FaultLog.Kill("w0-303", 303, T0.plusMillis(400),
                List.of(new FaultLog.Takeover(LOCK, 7, 8, 2400))));

        TortureChecker.Verdict verdict = check(Set.of(Fault.KILL), faults, worker(PID_A, 0), worker(PID_B, 0),
                killedWorker(303));

        assertThat(verdict.passed()).as(output()).isTrue();
        assertThat(verdict.line()).isEqualTo("TORTURE db=h2 processes=2 sections=2 lost_updates=0 "
                + "stale_writes_accepted=0 stale_writes_refused=0 kills=1 pauses=0 disconnects=0 max_takeover_ms=2400 "
                + "pool=0 rowlocks=0 max_release_ms=12");
        assertThat(output()).endsWith(verdict.line() + System.lineSeparator());
    }

    @Test
    void overlappingHoldersLoseAnUpdateAndFailARunWithoutPause() throws SQLException {
        section(PID_A, 5, 0, 0, 500);
        section(PID_B, 6, 0, 100, 200);
        counter(1);
        acceptedLedgerFor(5, 6);

        TortureChecker.Verdict verdict = check(Set.of(), new FaultLog(), worker(PID_A, 0), worker(PID_B, 0));

        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.lostUpdates()).isEqualTo(1);
        assertThat(verdict.unexplainedOverlaps()).isEqualTo(1);
        assertThat(output()).contains("FAIL lost_updates=0 without pause and rowlock (1)");
    }

    @Test
    void theSameOverlapPassesWhenTheEarlierHolderWasPausedDuringIt() throws SQLException {
        section(PID_A, 5, 0, 0, 4000);
        section(PID_B, 6, 0, 2500, 2600);
        counter(1);
        acceptedLedgerFor(5, 6);
        FaultLog faults = new FaultLog();
        faults.add(new FaultLog.Pause("w0-" + PID_A, PID_A, T0.plusMillis(50), T0.plusMillis(3550)));

        TortureChecker.Verdict verdict = check(Set.of(Fault.PAUSE), faults, worker(PID_A, 0), worker(PID_B, 0));

        assertThat(verdict.passed()).as(output()).isTrue();
        assertThat(verdict.lostUpdates()).isEqualTo(1);
        assertThat(verdict.unexplainedOverlaps()).isZero();
    }

    @Test
    void anOverlapByAHolderThatKnewItsLeaseWasLostIsExplainedButStillLosesAnUpdate() throws SQLException {
        section(PID_A, 5, 0, 0, 2500, true);
        section(PID_B, 6, 0, 2300, 2400);
        counter(1);
        acceptedLedgerFor(5, 6);

        TortureChecker.Verdict verdict = check(Set.of(), new FaultLog(), worker(PID_A, 0), worker(PID_B, 0));

        assertThat(verdict.unexplainedOverlaps()).isZero();
        assertThat(verdict.lostUpdates()).isEqualTo(1);
        assertThat(verdict.passed()).as("lost_updates=0 is required without pause").isFalse();
        assertThat(output()).contains("1 where the older holder wrote after its lease was known lost");
    }

    @Test
    void aStaleTokenAcceptedAfterAHigherOneFails() throws SQLException {
        section(PID_A, 7, 0, 0, 10);
        counter(1);
        accepted(PID_A, 5, 1, 20);
        accepted(PID_B, 7, 2, 30);
        accepted(PID_A, 6, 3, 40);
        ledgerHead(6, 3);
        fence(7);

        TortureChecker.Verdict verdict = check(Set.of(), new FaultLog(), worker(PID_A, 0), worker(PID_B, 0));

        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.staleWritesAccepted()).isEqualTo(1);
        assertThat(verdict.orderViolations()).isEqualTo(1);
    }

    @Test
    void aTakeoverSlowerThanTtlPlusOneRetryIntervalFails() throws SQLException {
        section(PID_A, 5, 0, 0, 10);
        counter(1);
        acceptedLedgerFor(5);
        FaultLog faults = new FaultLog();
        faults.add(new FaultLog.Kill("w0-303", 303, T0, List.of(new FaultLog.Takeover(LOCK, 4, 9, 3501))));

        assertThat(check(Set.of(Fault.KILL), faults, worker(PID_A, 0), killedWorker(303)).passed()).isFalse();
        assertThat(output()).contains("FAIL after a kill");
    }

    @Test
    void anUnexpectedExceptionOrAnAbnormalExitFails() throws SQLException {
        section(PID_A, 5, 0, 0, 10);
        counter(1);
        acceptedLedgerFor(5);
        WorkerOutcome unexpected = new WorkerOutcome("w0-" + PID_A, PID_A, 0, 0, false,
                List.of(T0 + " EVENT UNEXPECTED torture-lock-0: java.lang.NullPointerException"));
        WorkerOutcome crashed = new WorkerOutcome("w1-" + PID_B, PID_B, 0, 1, false, List.of());

        assertThat(check(Set.of(), new FaultLog(), unexpected, worker(PID_B, 0)).passed()).isFalse();
        assertThat(check(Set.of(), new FaultLog(), worker(PID_A, 0), crashed).passed()).isFalse();
    }

    @Test
    void aRequestedFaultThatWasNeverInjectedFails() throws SQLException {
        section(PID_A, 5, 0, 0, 10);
        counter(1);
        acceptedLedgerFor(5);

        assertThat(check(Set.of(Fault.DISCONNECT), new FaultLog(), worker(PID_A, 0)).passed()).isFalse();
        assertThat(check(Set.of(Fault.SKEW), new FaultLog(), worker(PID_A, 0)).passed()).as("no clock offset")
                .isFalse();
        assertThat(check(Set.of(Fault.SKEW), new FaultLog(), worker(PID_A, -90_000)).passed()).isTrue();
    }

    @Test
    void aLeaseLostWhileItsWorkersGuardedWorkHeldThePoolFailsAndNoneLostPasses() throws SQLException {
        cleanLedger();
        FaultLog faults = poolFaultOfWorkerA();
        String hog = exhaustingHogOfWorkerA();

        TortureChecker.Verdict kept = check(Set.of(Fault.POOL), faults,
                worker(PID_A, 0, List.of(hog), 0, 0), worker(PID_B, 0));
        assertThat(kept.passed()).as(output()).isTrue();
        assertThat(kept.pools()).isEqualTo(1);

        TortureChecker.Verdict lost = check(Set.of(Fault.POOL), faults, worker(PID_A, 0,
                List.of(hog, lost(2000, "LOST", 5), lost(2001, "REPORTED_LOST", 5)), 1, 1), worker(PID_B, 0));
        assertThat(lost.passed()).isFalse();
        assertThat(lost.lostUnderPool()).isEqualTo(1);
        assertThat(output()).contains("FAIL no lease lost while its worker's guarded work held every connection");
    }

    @Test
    void aLeaseLostUnderThePoolFaultRightAfterTheDatabaseCutThatWorkersSessionsIsCountedApart() throws SQLException {
        cleanLedger();
        List<String> lostOnce = List.of(exhaustingHogOfWorkerA(), lost(2000, "LOST", 5),
                lost(2001, "REPORTED_LOST", 5));
        FaultLog cutBefore = poolFaultOfWorkerA();
        cutBefore.add(new FaultLog.Disconnect("w0-" + PID_A, T0.minusMillis(1500), 2));
        FaultLog otherWorkerCut = poolFaultOfWorkerA();
        otherWorkerCut.add(new FaultLog.Disconnect("w0-" + PID_B, T0.minusMillis(1500), 2));

        TortureChecker.Verdict afterCut = check(Set.of(Fault.POOL, Fault.DISCONNECT), cutBefore,
                worker(PID_A, 0, lostOnce, 1, 1), worker(PID_B, 0));
        assertThat(afterCut.passed()).as(output()).isTrue();
        assertThat(afterCut.lostUnderPool()).isZero();
        assertThat(output()).contains("0 leases lost meanwhile, and 1 more after the database cut that worker's");

        TortureChecker.Verdict anotherWorkersCut = check(Set.of(Fault.POOL, Fault.DISCONNECT), otherWorkerCut,
                worker(PID_A, 0, lostOnce, 1, 1), worker(PID_B, 0));
        assertThat(anotherWorkersCut.passed()).isFalse();
        assertThat(anotherWorkersCut.lostUnderPool()).isEqualTo(1);
    }

    @Test
    void aPoolFaultThatNeverExhaustedThePoolFails() throws SQLException {
        cleanLedger();
        FaultLog faults = poolFaultOfWorkerA();
        String hog = T0.plusMillis(3400) + " EVENT HOG torture-lock-0 token=5 held_ms=3000 connections=1 max_active=2 "
                + "pool=4 lease_lost=false";

        assertThat(check(Set.of(Fault.POOL), faults, worker(PID_A, 0, List.of(hog), 0, 0)).passed()).isFalse();
    }

    @Test
    void aLeaseLostBesideAStalledRowFailsWhileTheStalledLeasesOwnLossPasses() throws SQLException {
        cleanLedger();
        FaultLog faults = new FaultLog();
        faults.add(new FaultLog.RowLock(List.of("torture-lock-1"), "w0-" + PID_A, PID_A, 2, T0, T0.plusMillis(3000),
                List.of(new FaultLog.Probe("torture-lock-1", 1005, false, null))));

        TortureChecker.Verdict stalledOnly = check(Set.of(Fault.ROWLOCK), faults, worker(PID_A, 0,
                List.of(lost(2500, "LOST", "torture-lock-1", 9), lost(2501, "REPORTED_LOST", "torture-lock-1", 9)),
                1, 1));
        assertThat(stalledOnly.passed()).as(output()).isTrue();
        assertThat(stalledOnly.rowLocks()).isEqualTo(1);

        TortureChecker.Verdict beside = check(Set.of(Fault.ROWLOCK), faults, worker(PID_A, 0,
                List.of(lost(2500, "LOST", 5), lost(2501, "REPORTED_LOST", 5)), 1, 1));
        assertThat(beside.passed()).isFalse();
        assertThat(beside.lostBesideStalledRows()).isEqualTo(1);
        assertThat(output()).contains("FAIL the watchdog keeps the leases beside a stalled row (1 lost)");
    }

    @Test
    void anAcquireOfAStalledLockThatTookALockOrLongerThanTheBoundFails() throws SQLException {
        cleanLedger();
        for (FaultLog.Probe probe : List.of(new FaultLog.Probe("torture-lock-0", 20, true, null),
                new FaultLog.Probe("torture-lock-0", 4001, false, null))) {
            FaultLog faults = new FaultLog();
            faults.add(new FaultLog.RowLock(List.of("torture-lock-0"), "w0-" + PID_A, PID_A, 1, T0,
                    T0.plusMillis(3000), List.of(probe)));

            TortureChecker.Verdict verdict = check(Set.of(Fault.ROWLOCK), faults, worker(PID_A, 0));

            assertThat(verdict.passed()).as(probe.toString()).isFalse();
            assertThat(verdict.slowProbes()).isEqualTo(1);
        }
    }

    @Test
    void aReleaseSlowerThanTheBoundFailsUnlessItsWorkerWasStoppedMeanwhile() throws SQLException {
        cleanLedger();
        String release = T0.plusMillis(5000) + " EVENT RELEASE torture-lock-0 token=5 ms=4100 end="
                + T0.plusMillis(5000);

        TortureChecker.Verdict slow = check(Set.of(), new FaultLog(), worker(PID_A, 0, List.of(release), 0, 0));
        assertThat(slow.passed()).isFalse();
        assertThat(slow.maxReleaseMillis()).isEqualTo(4100);
        assertThat(output()).contains("FAIL no release and no acquire slower than");

        FaultLog paused = new FaultLog();
        paused.add(new FaultLog.Pause("w0-" + PID_A, PID_A, T0.plusMillis(1500), T0.plusMillis(4500)));
        TortureChecker.Verdict stopped = check(Set.of(Fault.PAUSE), paused, worker(PID_A, 0, List.of(release), 0, 0));
        assertThat(stopped.passed()).as(output()).isTrue();
        assertThat(stopped.maxReleaseMillis()).as("the release while stopped is left out").isEqualTo(12);
    }

    @Test
    void aLeaseToldLostButNotReportedOrReportedTwiceFails() throws SQLException {
        cleanLedger();
        TortureChecker.Verdict unreported = check(Set.of(), new FaultLog(),
                worker(PID_A, 0, List.of(lost(100, "LOST", 5)), 1, 0));
        assertThat(unreported.lostMiscounted()).isEqualTo(1);
        assertThat(unreported.passed()).isFalse();

        TortureChecker.Verdict twice = check(Set.of(), new FaultLog(), worker(PID_A, 0,
                List.of(lost(100, "LOST", 5), lost(101, "REPORTED_LOST", 5), lost(102, "REPORTED_LOST", 5)), 1, 2));
        assertThat(twice.lostMiscounted()).isEqualTo(1);

        TortureChecker.Verdict miscounted = check(Set.of(), new FaultLog(), worker(PID_A, 0,
                List.of(lost(100, "LOST", 5), lost(101, "REPORTED_LOST", 5)), 2, 1));
        assertThat(miscounted.lostMiscounted()).isEqualTo(1);

        TortureChecker.Verdict matched = check(Set.of(), new FaultLog(), worker(PID_A, 0,
                List.of(lost(100, "LOST", 5), lost(101, "REPORTED_LOST", 5)), 1, 1));
        assertThat(matched.passed()).as(output()).isTrue();
    }

    /** One section on torture-lock-0 and its accepted ledger write. */
    /** Worker A's guarded sections held its pool from T0 for 3.5 s. */
    private static FaultLog poolFaultOfWorkerA() {
        FaultLog faults = new FaultLog();
        faults.add(new FaultLog.PoolHog("w0-" + PID_A, PID_A, T0, T0.plusMillis(3500), 1));
        return faults;
    }

    /** Worker A's section that held every connection of its pool, the watchdog's included, past the TTL. */
    private static String exhaustingHogOfWorkerA() {
        return T0.plusMillis(3400) + " EVENT HOG torture-lock-0 token=5 held_ms=3000 connections=3 max_active=4 "
                + "pool=4 lease_lost=false";
    }

    private void cleanLedger() throws SQLException {
        section(PID_A, 5, 0, 0, 10);
        counter(1);
        acceptedLedgerFor(5);
    }

    private static String lost(long atMillis, String kind, long token) {
        return lost(atMillis, kind, LOCK, token);
    }

    private static String lost(long atMillis, String kind, String lock, long token) {
        return T0.plusMillis(atMillis) + " EVENT " + kind + " " + lock + " token=" + token + ": for the test";
    }

    private TortureChecker.Verdict check(Set<Fault> faults, FaultLog log, WorkerOutcome... workers)
            throws SQLException {
        output.reset();
        TortureOptions options = new TortureOptions(TestDatabase.H2, 2, Duration.ofSeconds(60), faults, 3, 1,
                Duration.ofSeconds(2), Path.of("target"));
        return new TortureChecker(dataSource, options, new PrintStream(output, true, StandardCharsets.UTF_8))
                .check(log, List.of(workers));
    }

    private String output() {
        return output.toString(StandardCharsets.UTF_8);
    }

    private static WorkerOutcome worker(long pid, long skewMillis) {
        return worker(pid, skewMillis, List.of(), 0, 0);
    }

    /** A worker that printed these lines and ended with its counts of leases lost and reported lost. */
    private static WorkerOutcome worker(long pid, long skewMillis, List<String> lines, long lostLeases,
            long reportedLost) {
        List<String> log = new java.util.ArrayList<>(lines);
        log.add(T0.plusSeconds(60) + " EVENT DONE sections=1 lost_leases=" + lostLeases + " reported_lost="
                + reportedLost + " max_release_ms=12 max_acquire_ms=3");
        return new WorkerOutcome("w0-" + pid, pid, skewMillis, 0, false, log);
    }

    private static WorkerOutcome killedWorker(long pid) {
        return new WorkerOutcome("w0-" + pid, pid, 0, WorkerProcess.KILLED_EXIT, true, List.of());
    }

    private void section(long pid, long token, long read, long startMillis, long endMillis) throws SQLException {
        section(pid, token, read, startMillis, endMillis, false);
    }

    private void section(long pid, long token, long read, long startMillis, long endMillis, boolean leaseKnownLost)
            throws SQLException {
        update("INSERT INTO " + TortureSchema.SECTIONS + " (lock_name, token, owner, worker_pid, read_value, "
                + "written_value, lease_lost, started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", LOCK, token,
                "w0-" + pid + ":x", pid, read, read + 1, leaseKnownLost ? 1 : 0, at(startMillis), at(endMillis));
    }

    private void counter(long value) throws SQLException {
        update("UPDATE " + TortureSchema.COUNTER + " SET counter_value = ? WHERE lock_name = ?", value, LOCK);
    }

    private void accepted(long pid, long token, long version, long atMillis) throws SQLException {
        update("INSERT INTO " + TortureSchema.LEDGER + " (lock_name, token, owner, worker_pid, accepted, version, "
                + "written_at) VALUES (?, ?, ?, ?, 1, ?, ?)", LOCK, token, "w0-" + pid + ":x", pid, version,
                at(atMillis));
    }

    /** Accepted ledger writes for these tokens in this order, with a matching head and fence. */
    private void acceptedLedgerFor(long... tokens) throws SQLException {
        for (int i = 0; i < tokens.length; i++) {
            accepted(PID_A, tokens[i], i + 1, 5000 + i);
        }
        ledgerHead(tokens[tokens.length - 1], tokens.length);
        fence(tokens[tokens.length - 1]);
    }

    private void ledgerHead(long token, long version) throws SQLException {
        update("UPDATE " + TortureSchema.LEDGER_HEAD + " SET token = ?, version = ? WHERE lock_name = ?", token,
                version, LOCK);
    }

    private void fence(long token) throws SQLException {
        update("INSERT INTO " + TortureSchema.FENCE + " (name, last_token) VALUES (?, ?)", LOCK, token);
    }

    private static OffsetDateTime at(long millis) {
        return T0.plusMillis(millis).atOffset(ZoneOffset.UTC);
    }

    private void update(String sql, Object... args) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                statement.setObject(i + 1, args[i]);
            }
            statement.executeUpdate();
        }
    }
}
