package io.distlock.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.distlock.core.LockArguments;
import io.distlock.core.SlotClaim;
import io.distlock.core.SlotRequest;
import io.distlock.core.SlotRun;
import io.distlock.core.SlotRunOutcome;
import io.distlock.core.SlotStore;
import io.distlock.core.TimeSource;
import io.distlock.jdbc.dialect.LockDialect;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.BadSqlGrammarException;

/**
 * The scheduled slots of jobs in the lock table: each job's lock row carries its last claimed slot ({@code slot_at},
 * epoch milliseconds), the token that claimed it, whether its run finished, and how many runs it had; the slot table
 * ({@code <table>_slots}) keeps the history of runs. A claim reads the row the caller holds and the database's
 * clock, decides, and writes with a compare-and-set on what it read, whose {@code WHERE} also requires the caller's
 * live lease: a stale or foreign owner, or a claim that raced another, changes nothing. The claim and its history
 * entries are one transaction. Every statement carries the repository's time bound.
 *
 * <p>Whether the table has the slot columns at all — a table made by distlock 0.1 has not — is decided once, by the
 * first clean-up that asks ({@link #hasSlotColumns()}), or known once a check or a claim succeeded.
 */
final class JdbcSlotStore implements SlotStore {

    private static final String CLAIM = "claim slot";

    private static final String FINISH = "finish slot";

    private static final String RUNNING = "R";

    private static final String DONE = "D";

    private final StatementExecutor executor;

    private final LockDialect dialect;

    private final TimedStatement state;

    private final TimedStatement claim;

    private final TimedStatement record;

    private final TimedStatement prune;

    private final TimedStatement crashed;

    private final TimedStatement finishRow;

    private final TimedStatement finishRun;

    private final TimedStatement previousRun;

    private final TimedStatement recentOfJob;

    private final TimedStatement recentOfAll;

    private final TimedStatement verifyColumns;

    private final TimedStatement verifyTable;

    private final String upgradeHint;

    /** Whether the table has the slot columns: {@code null} until known. */
    private volatile @Nullable Boolean slotColumns;

    JdbcSlotStore(StatementExecutor executor, LockDialect dialect, LockTableName table, TimeSource timeSource) {
        this.executor = executor;
        this.dialect = dialect;
        String slots = table.value() + "_slots";
        String now = LockDialect.NOW;
        this.state = compile(("SELECT slot_at, slot_token, slot_state, slot_runs, token, %2$s FROM %1$s "
                + "WHERE resource = ? AND owner = ? AND expires_at > %2$s").formatted(table, now), timeSource);
        this.claim = compile(("UPDATE %s SET slot_at = ?, slot_token = token, slot_state = 'R', slot_runs = ? "
                + "WHERE resource = ? AND owner = ? AND expires_at > %s AND COALESCE(slot_at, -1) = ? "
                + "AND COALESCE(slot_token, -1) = ? AND slot_runs = ?").formatted(table, now), timeSource);
        this.record = compile(("INSERT INTO %s (job, slot_at, run_no, owner, token, started_at, outcome) "
                + "VALUES (?, ?, ?, ?, ?, %s, 'RUNNING')").formatted(slots, now), timeSource);
        // Rows of slots older than the job's newest KEPT_PER_JOB runs; the derived table lets MariaDB read the table
        // it deletes from.
        this.prune = compile(("DELETE FROM %1$s WHERE job = ? AND slot_at < (SELECT MIN(slot_at) FROM (SELECT slot_at "
                + "FROM %1$s WHERE job = ? ORDER BY slot_at DESC, run_no DESC LIMIT %2$d) kept)")
                .formatted(slots, SlotRun.KEPT_PER_JOB), timeSource);
        this.crashed = compile(("UPDATE %s SET outcome = 'CRASHED' WHERE job = ? AND slot_at = ? AND token = ? "
                + "AND outcome = 'RUNNING'").formatted(slots), timeSource);
        this.finishRow = compile("UPDATE %s SET slot_state = 'D' WHERE resource = ? AND slot_at = ? AND slot_token = ?"
                .formatted(table), timeSource);
        this.finishRun = compile(("UPDATE %s SET outcome = ?, finished_at = %s WHERE job = ? AND slot_at = ? "
                + "AND token = ?").formatted(slots, now), timeSource);
        String columns = "job, slot_at, run_no, owner, token, started_at, finished_at, outcome";
        this.previousRun = compile(("SELECT slot_at, outcome, token FROM %s WHERE job = ? AND slot_at < ? "
                + "ORDER BY slot_at DESC, run_no DESC LIMIT 1").formatted(slots), timeSource);
        this.recentOfJob = compile("SELECT %s FROM %s WHERE job = ? ORDER BY slot_at DESC, run_no DESC LIMIT ?"
                .formatted(columns, slots), timeSource);
        this.recentOfAll = compile("SELECT %s FROM %s ORDER BY job, slot_at DESC, run_no DESC".formatted(columns, slots),
                timeSource);
        this.verifyColumns = compile("SELECT slot_at, slot_token, slot_state, slot_runs FROM %s WHERE 1 = 0"
                .formatted(table), timeSource);
        this.verifyTable = compile("SELECT %s FROM %s WHERE 1 = 0".formatted(columns, slots), timeSource);
        this.upgradeHint = "The lock table '" + table + "' or its slot table '" + slots + "' lacks the slot columns: "
                + "run the script " + upgradeLocation(dialect) + ", then " + dialect.schemaLocation() + ", from the "
                + "lock-jdbc jar (both safe to run again; LockSchema.upgradeSlotsScript gives the two in one)"
                + (table.equals(LockTableName.DEFAULT) ? "" : " (renaming distributed_locks to " + table + ")");
    }

    /**
     * The script that adds the slot columns to a lock table made by an earlier version.
     *
     * @param dialect the database
     * @return its class path location
     */
    static String upgradeLocation(LockDialect dialect) {
        return dialect.schemaLocation().replace("schema-", "upgrade-slots-");
    }

    @Override
    public SlotClaim claimSlot(String job, String owner, Instant slot, boolean rerunUnfinished) {
        LockArguments.slotClaim(job, owner, slot);
        long slotMillis = slot.toEpochMilli();
        SlotClaim decided = run(CLAIM, claim, connection -> OwnConnection.inTransaction(connection, () -> {
            Optional<SlotState> found = executor.queryOne(connection, state, this::readState, job, owner);
            if (found.isEmpty()) {
                return SlotClaim.refused(SlotClaim.Status.NOT_HELD, null);
            }
            SlotState current = found.get();
            Instant storeTime = current.storeTime();
            if (slotMillis > storeTime.plus(SlotRequest.EARLY_TOLERANCE).toEpochMilli()) {
                return SlotClaim.refused(SlotClaim.Status.TOO_EARLY, storeTime);
            }
            int run = current.runFor(slotMillis, rerunUnfinished);
            if (run == 0) {
                return SlotClaim.refused(SlotClaim.Status.NOT_LATER, storeTime);
            }
            if (current.isOwnClaim(slotMillis, run)) {
                // A claim made again by the lease that made it: tell what the first one found.
                return executor.queryOne(connection, previousRun, rs -> new SlotClaim(SlotClaim.Status.CLAIMED, run,
                        Instant.ofEpochMilli(rs.getLong(1)), SlotRunOutcome.CRASHED.name().equals(rs.getString(2)),
                        rs.getLong(3), storeTime), job, slotMillis)
                        .orElse(new SlotClaim(SlotClaim.Status.CLAIMED, run, null, false, 0, storeTime));
            }
            int claimed = executor.update(connection, claim, slotMillis, run, job, owner, current.slotOrNone(),
                    current.tokenOrNone(), current.runs());
            if (claimed == 0) {
                // The lease ended, or another claim came first: read again to tell which.
                return executor.queryOne(connection, state, this::readState, job, owner)
                        .map(again -> SlotClaim.refused(SlotClaim.Status.NOT_LATER, storeTime))
                        .orElse(SlotClaim.refused(SlotClaim.Status.NOT_HELD, storeTime));
            }
            executor.update(connection, record, job, slotMillis, run, owner, current.token());
            executor.update(connection, prune, job, job);
            // The run claimed before never finished: its holder stopped mid-run (it is re-run now, or not at all).
            boolean previousUnfinished = current.slot() != null && RUNNING.equals(current.state());
            if (previousUnfinished) {
                executor.update(connection, crashed, job, current.slot(), current.slotToken());
            }
            Instant previous = current.slot() == null ? null : Instant.ofEpochMilli(current.slot());
            return new SlotClaim(SlotClaim.Status.CLAIMED, run, previous, previousUnfinished,
                    current.slotToken() == null ? 0 : current.slotToken(), storeTime);
        }));
        slotColumns = true;
        return decided;
    }

    @Override
    public void verifySlots() {
        run("verify slots", verifyColumns, connection -> {
            executor.queryAll(connection, verifyColumns, rs -> rs.getLong(1));
            return executor.queryAll(connection, verifyTable, rs -> rs.getLong(1));
        });
        slotColumns = true;
    }

    /**
     * Whether the lock table has the slot columns, asked once (a query that reads no row) and remembered.
     *
     * @return {@code false} for a table made by distlock 0.1, which lacks them
     * @throws org.springframework.dao.DataAccessException when the database does not answer; asked again next time
     */
    boolean hasSlotColumns() {
        Boolean known = slotColumns;
        if (known == null) {
            try {
                executor.runAlone("check slot columns", verifyColumns,
                        connection -> executor.queryAll(connection, verifyColumns, rs -> rs.getLong(1)));
                known = true;
            }
            catch (BadSqlGrammarException noSlotColumns) {
                known = false;
            }
            slotColumns = known;
        }
        return known;
    }

    @Override
    public void finishSlot(String job, Instant slot, long token, SlotRunOutcome outcome) {
        LockArguments.slotFinish(job, slot, outcome);
        long slotMillis = slot.toEpochMilli();
        run(FINISH, finishRow, connection -> {
            executor.update(connection, finishRow, job, slotMillis, token);
            return executor.update(connection, finishRun, outcome.name(), job, slotMillis, token);
        });
    }

    @Override
    public List<SlotRun> recentSlotRuns(@Nullable String job, int limit) {
        LockArguments.slotRuns(job, limit);
        if (job != null) {
            return run("read slots", recentOfJob, c -> executor.queryAll(c, recentOfJob, this::readRun, job, limit));
        }
        List<SlotRun> all = run("read slots", recentOfAll, c -> executor.queryAll(c, recentOfAll, this::readRun));
        Map<String, List<SlotRun>> byJob = new LinkedHashMap<>();
        for (SlotRun slotRun : all) {
            List<SlotRun> runs = byJob.computeIfAbsent(slotRun.job(), key -> new ArrayList<>());
            if (runs.size() < limit) {
                runs.add(slotRun);
            }
        }
        return byJob.values().stream().flatMap(List::stream).toList();
    }

    private SlotRun readRun(ResultSet rs) throws SQLException {
        Instant finishedAt = rs.getObject(7) == null ? null : dialect.readInstant(rs, 7);
        return new SlotRun(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2)), rs.getInt(3), rs.getString(4),
                rs.getLong(5), dialect.readInstant(rs, 6), finishedAt, SlotRunOutcome.valueOf(rs.getString(8)));
    }

    private <T> T run(String task, TimedStatement main, StatementExecutor.SqlWork<T> work) {
        try {
            return executor.runAlone(task, main, work);
        }
        catch (BadSqlGrammarException ex) {
            throw new IllegalStateException(upgradeHint + ": " + ex.getMostSpecificCause().getMessage(), ex);
        }
    }

    /** Compiles a statement with the executor's time bound, as every statement of the lock table is. */
    private TimedStatement compile(String sql, TimeSource timeSource) {
        return TimedStatement.compile(executor.bound(sql), dialect, timeSource);
    }

    private SlotState readState(ResultSet rs) throws SQLException {
        return SlotState.read(rs, dialect.readInstant(rs, 6));
    }

    /** What the job's lock row says of its last claimed slot. */
    private record SlotState(@Nullable Long slot, @Nullable Long slotToken, @Nullable String state, int runs,
            long token, Instant storeTime) {

        static SlotState read(ResultSet rs, Instant storeTime) throws SQLException {
            long slot = rs.getLong(1);
            Long slotAt = rs.wasNull() ? null : slot;
            long slotToken = rs.getLong(2);
            Long claimedBy = rs.wasNull() ? null : slotToken;
            return new SlotState(slotAt, claimedBy, rs.getString(3), rs.getInt(4), rs.getLong(5), storeTime);
        }

        /** The run number a claim of {@code slotMillis} gets, or 0 when the slot is not the caller's to run. */
        int runFor(long slotMillis, boolean rerunUnfinished) {
            if (slot == null || slot < slotMillis) {
                return 1;
            }
            if (isOwnClaim(slotMillis, runs)) {
                return runs;
            }
            boolean crashedRun = slot == slotMillis && RUNNING.equals(state) && slotToken != null && slotToken < token;
            return rerunUnfinished && crashedRun && runs < 2 ? runs + 1 : 0;
        }

        /** Whether the caller's own lease claimed this slot already (a retried claim). */
        boolean isOwnClaim(long slotMillis, int run) {
            return slot != null && slot == slotMillis && slotToken != null && slotToken == token && runs == run
                    && !DONE.equals(state);
        }

        long slotOrNone() {
            return slot == null ? -1 : slot;
        }

        long tokenOrNone() {
            return slotToken == null ? -1 : slotToken;
        }
    }
}
