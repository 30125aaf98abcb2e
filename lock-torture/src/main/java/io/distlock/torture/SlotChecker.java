package io.distlock.torture;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import io.distlock.core.CrashPolicy;
import io.distlock.core.SlotRun;
import io.distlock.jdbc.dialect.LockDialect;
import org.jspecify.annotations.Nullable;

/**
 * Reads what the slots workers recorded, the library's slot history and what the controller did, prints the figures
 * per job and the pass criteria, and ends with the {@code SLOTS} line.
 *
 * <ul>
 * <li><b>Slots</b> of a job: the multiples of the period from the first slot whose work started to the last; a slot
 * is <b>executed</b> when its work started at least once, <b>missed</b> when it never did.</li>
 * <li><b>Duplicates</b>: starts of an at-most-once job's slot beyond its first. Every start is committed before the
 * work, so a killed or paused run counts too. Any duplicate fails the run.</li>
 * <li><b>Re-runs</b>: second starts of an at-least-once job's slot. One is allowed only after a first run whose
 * finish the slot history had not recorded when it started (its holder was killed, or stalled past its lease before
 * the finish was recorded, even when its work itself had ended), under a larger token.</li>
 * <li><b>Crashed</b>: runs the slot history records {@code CRASHED}: a later claim found them unfinished.</li>
 * <li><b>Untold</b>: slots that never started and that no claim told missed (the workers log what the library tells
 * them, {@code EVENT MISSED}) and the slot history does not record as claimed. Any untold slot fails the run: a slot
 * is executed, or told.</li>
 * </ul>
 */
final class SlotChecker {

    private static final Pattern DONE = Pattern.compile(
            " EVENT DONE ran=(\\d+) lost=(\\d+) locked=(\\d+) already_claimed=(\\d+) too_early=(\\d+) ");

    private static final Pattern MISSED = Pattern.compile(" EVENT MISSED (\\S+) first=(\\d+) last=(\\d+) count=(\\d+)");

    private static final Pattern JUMP = Pattern.compile(" EVENT JUMP \\S+ ahead ");

    private final DataSource dataSource;

    private final TortureOptions options;

    private final LockDialect dialect;

    private final PrintStream out;

    SlotChecker(DataSource dataSource, TortureOptions options, PrintStream out) {
        this.dataSource = dataSource;
        this.options = options;
        this.dialect = options.database().dialect();
        this.out = out;
    }

    /** The outcome: the figures of the final line and whether every criterion held. */
    record Verdict(boolean passed, long slots, long executed, long duplicates, long missed, long crashed, long rerun,
            long rerunViolations, long unclaimedStarts, long unexpected, long untold, String line) {
    }

    /** A start recorded by a worker. */
    private record Start(String job, CrashPolicy policy, long slot, int run, String worker, long token,
            Instant startedAt) {
    }

    /** A run in the library's slot history. */
    private record HistoryRun(String job, long slot, int run, long token, String outcome,
            @Nullable Instant finishedAt) {

        String key() {
            return key(job, slot, run, token);
        }

        static String key(String job, long slot, int run, long token) {
            return job + "/" + slot + "/" + run + "/" + token;
        }
    }

    Verdict check(FaultLog faults, List<WorkerOutcome> workers) throws SQLException {
        List<Start> starts = new ArrayList<>();
        List<HistoryRun> history = new ArrayList<>();
        try (Connection connection = dataSource.getConnection()) {
            query(connection, "SELECT job, policy, slot_at, run_no, worker, token, started_at FROM "
                    + TortureSchema.SLOT_RUNS, rs -> starts.add(new Start(rs.getString(1),
                            CrashPolicy.valueOf(rs.getString(2)), rs.getLong(3), rs.getInt(4), rs.getString(5),
                            rs.getLong(6), dialect.readInstant(rs, 7))));
            query(connection, "SELECT job, slot_at, run_no, token, outcome, finished_at FROM "
                    + TortureSchema.SLOT_LOCKS + "_slots", rs -> history.add(new HistoryRun(rs.getString(1),
                            rs.getLong(2), rs.getInt(3), rs.getLong(4), rs.getString(5),
                            rs.getObject(6) == null ? null : dialect.readInstant(rs, 6))));
        }
        long period = TortureOptions.SLOT_PERIOD.toMillis();
        Map<String, List<Start>> byJob = starts.stream()
                .collect(Collectors.groupingBy(Start::job, TreeMap::new, Collectors.toList()));
        Map<String, HistoryRun> claimed = history.stream()
                .collect(Collectors.toMap(HistoryRun::key, Function.identity()));
        // The library keeps the newest runs of each job only: a start of an older slot has no claim left to check.
        Map<String, Long> keptFrom = history.stream().collect(Collectors.groupingBy(HistoryRun::job)).entrySet()
                .stream().filter(runs -> runs.getValue().size() >= SlotRun.KEPT_PER_JOB)
                .collect(Collectors.toMap(Map.Entry::getKey,
                        runs -> runs.getValue().stream().mapToLong(HistoryRun::slot).min().orElseThrow()));
        Predicate<Start> pruned = start -> start.slot() < keptFrom.getOrDefault(start.job(), Long.MIN_VALUE);

        Map<String, List<long[]>> told = toldMissed(workers);
        java.util.Set<String> claimedSlots = history.stream().map(h -> h.job() + "/" + h.slot())
                .collect(Collectors.toSet());
        long untold = 0;
        long slots = 0;
        long executed = 0;
        long duplicates = 0;
        long reruns = 0;
        long rerunViolations = 0;
        List<String> violations = new ArrayList<>();
        List<String> jobLines = new ArrayList<>();
        for (Map.Entry<String, List<Start>> job : byJob.entrySet()) {
            TreeMap<Long, List<Start>> bySlot = job.getValue().stream()
                    .collect(Collectors.groupingBy(Start::slot, TreeMap::new, Collectors.toList()));
            CrashPolicy policy = job.getValue().get(0).policy();
            long first = bySlot.firstKey();
            long last = bySlot.lastKey();
            long jobSlots = (last - first) / period + 1;
            long jobDuplicates = 0;
            long jobReruns = 0;
            for (Map.Entry<Long, List<Start>> slot : bySlot.entrySet()) {
                // In run order: a first run whose holder was paused between its claim and its record may record its
                // start after the re-run's.
                List<Start> runs = slot.getValue().stream()
                        .sorted(Comparator.comparingInt(Start::run).thenComparingLong(Start::token)).toList();
                if (runs.size() < 2) {
                    continue;
                }
                String where = job.getKey() + " slot " + Instant.ofEpochMilli(slot.getKey()) + ": started "
                        + runs.size() + " times, by " + runs.stream().map(r -> r.worker() + " token " + r.token()
                                + " run " + r.run()).toList();
                if (policy == CrashPolicy.AT_MOST_ONCE) {
                    jobDuplicates += runs.size() - 1;
                    violations.add("duplicate: " + where);
                    continue;
                }
                jobReruns += runs.size() - 1;
                Start firstRun = runs.get(0);
                Start again = runs.get(1);
                // The store decides a re-run by the finish it recorded: work that ended but whose finish was not
                // recorded before its lease ran out is unfinished to every replica, and at least once runs it again.
                HistoryRun firstClaim = claimed.get(HistoryRun.key(firstRun.job(), firstRun.slot(), firstRun.run(),
                        firstRun.token()));
                Instant recordedFinish = firstClaim == null ? null : firstClaim.finishedAt();
                boolean finishedBefore = recordedFinish != null && !recordedFinish.isAfter(again.startedAt());
                if (runs.size() > 2 || finishedBefore || again.token() <= firstRun.token() || again.run() != 2) {
                    rerunViolations++;
                    violations.add("re-run not allowed: " + where + (finishedBefore ? ", the slot history recorded "
                            + "the first finished at " + recordedFinish + " before the second started at "
                            + again.startedAt() : ""));
                }
            }
            for (long at = first; at <= last; at += period) {
                long slot = at;
                boolean toldMissed = told.getOrDefault(job.getKey(), List.of()).stream()
                        .anyMatch(range -> range[0] <= slot && slot <= range[1]);
                if (!bySlot.containsKey(slot) && !toldMissed && !claimedSlots.contains(job.getKey() + "/" + slot)
                        && slot >= keptFrom.getOrDefault(job.getKey(), Long.MIN_VALUE)) {
                    untold++;
                    violations.add("untold: " + job.getKey() + " slot " + Instant.ofEpochMilli(slot) + " never started "
                            + "and no claim told it missed");
                }
            }
            long jobCrashed = history.stream()
                    .filter(h -> h.job().equals(job.getKey()) && h.outcome().equals("CRASHED")).count();
            slots += jobSlots;
            executed += bySlot.size();
            duplicates += jobDuplicates;
            reruns += jobReruns;
            jobLines.add(String.format("%s (%s): %d slots, %d executed, %d missed, %d duplicates, %d re-runs, "
                    + "%d crashed", job.getKey(), policy == CrashPolicy.AT_MOST_ONCE ? "at most once" : "at least once",
                    jobSlots, bySlot.size(), jobSlots - bySlot.size(), jobDuplicates, jobReruns, jobCrashed));
        }
        long crashed = history.stream().filter(h -> h.outcome().equals("CRASHED")).count();
        List<Start> unclaimed = starts.stream().filter(s -> !pruned.test(s)
                && !claimed.containsKey(HistoryRun.key(s.job(), s.slot(), s.run(), s.token()))).toList();
        long prunedStarts = starts.stream().filter(pruned).count();
        unclaimed.stream().limit(20).forEach(s -> violations.add("started without a claim in the slot history: "
                + s.job() + " slot " + Instant.ofEpochMilli(s.slot()) + " run " + s.run() + " token " + s.token()
                + " by " + s.worker()));
        long[] attempts = new long[5];
        for (WorkerOutcome worker : workers) {
            for (String line : worker.logLines()) {
                Matcher done = DONE.matcher(line);
                if (done.find()) {
                    for (int i = 0; i < attempts.length; i++) {
                        attempts[i] += Long.parseLong(done.group(i + 1));
                    }
                }
            }
        }
        LongSummaryStatistics takeovers = faults.kills().stream().flatMap(k -> k.takeovers().stream())
                .filter(FaultLog.Takeover::happened).mapToLong(FaultLog.Takeover::takeoverMillis).summaryStatistics();
        List<String> unexpectedLines = workers.stream().flatMap(w -> w.unexpectedLines().stream()
                .map(line -> w.name() + ": " + line)).toList();
        List<String> abnormalExits = workers.stream().filter(WorkerOutcome::abnormalExit)
                .map(w -> w.name() + " exit " + w.exitCode()).toList();
        List<Long> offsets = workers.stream().map(WorkerOutcome::skewMillis).toList();
        long databaseErrors = workers.stream().mapToLong(w -> w.count(" EVENT DBERROR ")).sum();

        out.println();
        out.printf("figures (%s, %d worker processes in all, %d jobs, period %d ms, ttl %d ms)%n",
                options.database().id(), workers.size(), byJob.size(), period, options.ttl().toMillis());
        jobLines.forEach(line -> out.println("  job         " + line));
        out.printf("  clocks      slot clocks offset from %+.1f s to %+.1f s; lease expiry follows the database "
                + "clock%n", offsets.stream().mapToLong(Long::longValue).min().orElse(0) / 1000.0,
                offsets.stream().mapToLong(Long::longValue).max().orElse(0) / 1000.0);
        out.printf("  attempts    by the workers that stopped cleanly: %d ran, %d ran but lost the lease, %d found the "
                + "job's lock held, %d found the slot already claimed, %d were refused as too early%n", attempts[0],
                attempts[1], attempts[2], attempts[3], attempts[4]);
        long jumps = workers.stream().flatMap(w -> w.logLines().stream()).filter(l -> JUMP.matcher(l).find()).count();
        out.printf("  jump        %d times a slot clock jumped %d ms ahead and back again; %d missed slots told%n",
                jumps, TortureOptions.SLOT_JUMP.toMillis(), told.values().stream().flatMap(List::stream)
                        .mapToLong(range -> range[2]).sum());
        out.printf("  kill        %d workers killed while holding a job's lock, %d runs cut short; the job's lock next "
                + "taken after %s (another worker's next fire time after the lease expired)%n", faults.kills().size(),
                faults.kills().stream().mapToLong(k -> k.takeovers().size()).sum(), takeovers.getCount() == 0
                        ? "(none measured)"
                        : "max " + takeovers.getMax() + " ms, mean " + Math.round(takeovers.getAverage()) + " ms");
        out.printf("  pause       %d holders stopped for %d ms each%n", faults.pauses().size(),
                options.pauseLength().toMillis());
        if (options.faults().contains(Fault.DISCONNECT)) {
            out.printf("  disconnect  %d times, %d sessions cut%n", faults.disconnects().size(),
                    faults.disconnects().stream().mapToInt(FaultLog.Disconnect::sessions).sum());
        }
        if (prunedStarts > 0) {
            out.printf("  history     %d starts of slots older than the runs the slot history keeps (%d a job) are "
                    + "not checked against it%n", prunedStarts, SlotRun.KEPT_PER_JOB);
        }
        out.printf("  workers     %d database errors (documented), %d unexpected exceptions or library errors, %d "
                + "abnormal exits%n", databaseErrors, unexpectedLines.size(), abnormalExits.size());
        unexpectedLines.stream().limit(20).forEach(line -> out.println("    " + line));
        abnormalExits.forEach(line -> out.println("    " + line));
        violations.stream().limit(40).forEach(line -> out.println("    " + line));

        List<Boolean> results = new ArrayList<>();
        out.println("criteria");
        results.add(criterion(duplicates == 0, "duplicates=0: no slot of an at-most-once job started twice ("
                + duplicates + ")"));
        results.add(criterion(rerunViolations == 0, "a slot of an at-least-once job starts at most twice, the second "
                + "time under a larger token and only while the slot history had not recorded its first run's finish ("
                + rerunViolations + " violations)"));
        results.add(criterion(unclaimed.isEmpty(), "every run started under a claim the slot history records ("
                + unclaimed.size() + " did not)"));
        results.add(criterion(untold == 0, "every slot was executed, or told missed or claimed (" + untold
                + " untold)"));
        results.add(criterion(unexpectedLines.isEmpty() && abnormalExits.isEmpty(),
                "no exception escapes other than the documented ones (" + unexpectedLines.size() + " unexpected, "
                        + abnormalExits.size() + " abnormal exits)"));
        results.add(criterion(executed > 0 && injected(faults), "work was done and every requested fault was "
                + "injected (" + options.faultList() + ")"));
        boolean passed = results.stream().allMatch(Boolean::booleanValue);
        String line = String.format("SLOTS db=%s slots=%d executed=%d duplicates=%d missed=%d crashed=%d rerun=%d "
                + "untold=%d", options.database().id(), slots, executed, duplicates, slots - executed, crashed, reruns,
                untold);
        out.println(passed ? "PASSED" : "FAILED");
        out.println(line);
        return new Verdict(passed, slots, executed, duplicates, slots - executed, crashed, reruns, rerunViolations,
                unclaimed.size(), unexpectedLines.size() + abnormalExits.size(), untold, line);
    }

    /** The missed slots the library told the workers, per job: {first, last, count} ranges. */
    private static Map<String, List<long[]>> toldMissed(List<WorkerOutcome> workers) {
        Map<String, List<long[]>> told = new TreeMap<>();
        for (WorkerOutcome worker : workers) {
            for (String line : worker.logLines()) {
                Matcher missed = MISSED.matcher(line);
                if (missed.find()) {
                    told.computeIfAbsent(missed.group(1), job -> new ArrayList<>()).add(new long[] {
                        Long.parseLong(missed.group(2)), Long.parseLong(missed.group(3)),
                        Long.parseLong(missed.group(4)) });
                }
            }
        }
        return told;
    }

    private boolean injected(FaultLog faults) {
        Set<Fault> requested = options.faults();
        return (!requested.contains(Fault.KILL) || !faults.kills().isEmpty())
                && (!requested.contains(Fault.PAUSE) || !faults.pauses().isEmpty())
                && (!requested.contains(Fault.DISCONNECT) || !faults.disconnects().isEmpty());
    }

    private boolean criterion(boolean passed, String description) {
        out.println("  " + (passed ? "PASS " : "FAIL ") + description);
        return passed;
    }

    private static void query(Connection connection, String sql, RowHandler handler) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql); ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                handler.accept(rs);
            }
        }
    }

    @FunctionalInterface
    private interface RowHandler {

        void accept(ResultSet rs) throws SQLException;
    }
}
