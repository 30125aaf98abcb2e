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
                + "stale_writes_accepted=0 stale_writes_refused=0 kills=1 pauses=0 disconnects=0 max_takeover_ms=2400");
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
        assertThat(output()).contains("FAIL lost_updates=0 without pause (1)");
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
        return new WorkerOutcome("w0-" + pid, pid, skewMillis, 0, false, List.of(T0 + " EVENT DONE sections=1"));
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
