package io.distlock.torture;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import io.distlock.jdbc.dialect.LockDialect;

/**
 * Reads what the workers recorded and what the controller did, prints per-fault figures and the pass criteria, and
 * ends with the {@code TORTURE} line.
 *
 * <ul>
 * <li><b>Lost updates</b>: per lock, completed sections minus the counter's final value; every section committed its
 * counter write and its own record together.</li>
 * <li><b>Overlaps</b>: two sections of one lock whose [read, write] intervals on the database clock intersect. Only
 * a holder that outlived its lease can cause one, so each must involve a worker paused during its section, or an
 * older holder that wrote although its lease was already known lost (its process was starved past the TTL, an
 * unplanned pause). An overlap whose older holder still believed in its lease would break mutual exclusion.</li>
 * <li><b>Stale writes accepted</b>: accepted ledger writes, in the commit order given by the ledger head's version,
 * whose token is below one accepted before. The version is advanced under the head row's lock, independently of
 * the fencing table, so a broken fence shows up here.</li>
 * <li><b>Takeover</b>: from a kill to the next holder's acquisition of each lock the killed worker held.</li>
 * <li><b>Pool</b>: leases the pool fault's worker lost while its guarded sections held its pooled connections, and
 * for a TTL after: the watchdog's own connection must keep them all.</li>
 * <li><b>Row locks</b>: the controller's acquires of a stalled lock must answer "not acquired" within the bound,
 * and no lease of a lock whose row was not stalled may be lost while rows were stalled, and for a TTL after.</li>
 * <li><b>Bounds</b>: no release (from the end of the work to the return of {@code runLocked}) and no acquire
 * statement slower than the statement timeout plus {@link TortureOptions#CALL_MARGIN}, except in a worker that
 * was stopped meanwhile.</li>
 * <li><b>Lost leases</b>: every lease the lost-lease listener was told of is reported lost by the {@code runLocked}
 * call that held it, once, and the other way round; each worker's own counts agree.</li>
 * </ul>
 */
final class TortureChecker {

    private final DataSource dataSource;

    private final TortureOptions options;

    private final LockDialect dialect;

    private final PrintStream out;

    TortureChecker(DataSource dataSource, TortureOptions options, PrintStream out) {
        this.dataSource = dataSource;
        this.options = options;
        this.dialect = options.database().dialect();
        this.out = out;
    }

    /** Slack between the workers' wall clock and the database clock of the fault log, on one machine. */
    private static final long CLOCK_SLACK_MILLIS = 250;

    /** The outcome: the figures of the final line and whether every criterion held. */
    record Verdict(boolean passed, int sections, long lostUpdates, long staleWritesAccepted, long staleWritesRefused,
            int kills, int pauses, int disconnects, long maxTakeoverMillis, long unexplainedOverlaps,
            long orderViolations, long unexpected, int pools, int rowLocks, long maxReleaseMillis,
            long lostUnderPool, long lostBesideStalledRows, long slowProbes, long slowCalls, long lostMiscounted,
            String line) {
    }

    private record Section(String lock, long token, long pid, boolean leaseKnownLost, Instant startedAt,
            Instant endedAt) {
    }

    private record LedgerWrite(String lock, long token, long pid, boolean accepted, long version, Instant writtenAt) {
    }

    Verdict check(FaultLog faults, List<WorkerOutcome> workers) throws SQLException {
        List<Section> sections = new ArrayList<>();
        List<LedgerWrite> ledger = new ArrayList<>();
        Map<String, Long> counters = new HashMap<>();
        Map<String, long[]> heads = new HashMap<>();
        Map<String, Long> fence = new HashMap<>();
        try (Connection connection = dataSource.getConnection()) {
            query(connection, "SELECT lock_name, token, worker_pid, lease_lost, started_at, ended_at FROM "
                    + TortureSchema.SECTIONS, rs -> sections.add(new Section(rs.getString(1), rs.getLong(2),
                            rs.getLong(3), rs.getInt(4) == 1, dialect.readInstant(rs, 5), dialect.readInstant(rs, 6))));
            query(connection, "SELECT lock_name, token, worker_pid, accepted, version, written_at FROM "
                    + TortureSchema.LEDGER, rs -> ledger.add(new LedgerWrite(rs.getString(1), rs.getLong(2),
                            rs.getLong(3), rs.getInt(4) == 1, rs.getLong(5), dialect.readInstant(rs, 6))));
            query(connection, "SELECT lock_name, counter_value FROM " + TortureSchema.COUNTER,
                    rs -> counters.put(rs.getString(1), rs.getLong(2)));
            query(connection, "SELECT lock_name, token, version FROM " + TortureSchema.LEDGER_HEAD,
                    rs -> heads.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3)}));
            query(connection, "SELECT name, last_token FROM " + TortureSchema.FENCE,
                    rs -> fence.put(rs.getString(1), rs.getLong(2)));
        }
        Map<String, List<Section>> sectionsByLock = sections.stream().collect(Collectors.groupingBy(Section::lock));
        Map<String, List<LedgerWrite>> ledgerByLock = ledger.stream().collect(Collectors.groupingBy(LedgerWrite::lock));

        // The unfenced counter.
        long lostUpdates = 0;
        for (Map.Entry<String, Long> counter : counters.entrySet()) {
            lostUpdates += sectionsByLock.getOrDefault(counter.getKey(), List.of()).size() - counter.getValue();
        }
        long overlaps = 0;
        long overlapsPaused = 0;
        long overlapsToldLost = 0;
        long unexplainedOverlaps = 0;
        for (List<Section> lockSections : sectionsByLock.values()) {
            List<Section> byStart = lockSections.stream().sorted(Comparator.comparing(Section::startedAt)).toList();
            for (int i = 0; i < byStart.size(); i++) {
                Section earlier = byStart.get(i);
                for (int j = i + 1; j < byStart.size() && byStart.get(j).startedAt().isBefore(earlier.endedAt()); j++) {
                    Section later = byStart.get(j);
                    Section older = earlier.token() < later.token() ? earlier : later;
                    overlaps++;
                    if (paused(faults, earlier) || paused(faults, later)) {
                        overlapsPaused++;
                    }
                    else if (older.leaseKnownLost()) {
                        overlapsToldLost++;
                    }
                    else {
                        unexplainedOverlaps++;
                    }
                }
            }
        }

        // The fenced ledger.
        long staleAccepted = 0;
        long orderViolations = 0;
        long refused = 0;
        long refusedAboveAccepted = 0;
        long lateAccepted = 0;
        List<String> inconsistencies = new ArrayList<>();
        for (String lock : counters.keySet()) {
            List<LedgerWrite> writes = ledgerByLock.getOrDefault(lock, List.of());
            List<LedgerWrite> accepted = writes.stream().filter(LedgerWrite::accepted)
                    .sorted(Comparator.comparingLong(LedgerWrite::version)).toList();
            long highest = 0;
            for (LedgerWrite write : accepted) {
                if (write.token() < highest) {
                    staleAccepted++;
                }
                if (write.token() <= highest) {
                    orderViolations++;
                }
                highest = Math.max(highest, write.token());
                if (supersededBefore(sectionsByLock.getOrDefault(lock, List.of()), write)) {
                    lateAccepted++;
                }
            }
            for (LedgerWrite write : writes) {
                if (!write.accepted()) {
                    refused++;
                    if (write.token() >= highest) {
                        refusedAboveAccepted++;
                    }
                }
            }
            long[] head = heads.getOrDefault(lock, new long[] {0, 0});
            Set<Long> versions = accepted.stream().map(LedgerWrite::version).collect(Collectors.toSet());
            if (head[1] != accepted.size() || versions.size() != accepted.size() || head[0] != highest) {
                inconsistencies.add(lock + ": head version " + head[1] + " token " + head[0] + " vs " + accepted.size()
                        + " accepted writes up to token " + highest);
            }
            Long fenced = fence.get(lock);
            if (!accepted.isEmpty() && (fenced == null || fenced != highest)) {
                inconsistencies.add(lock + ": fence holds " + fenced + ", highest accepted token " + highest);
            }
        }

        // The faults.
        List<FaultLog.Takeover> takeovers = faults.kills().stream().flatMap(k -> k.takeovers().stream()).toList();
        LongSummaryStatistics takeoverMillis = takeovers.stream().filter(FaultLog.Takeover::happened)
                .mapToLong(FaultLog.Takeover::takeoverMillis).summaryStatistics();
        long maxTakeover = takeoverMillis.getCount() == 0 ? 0 : takeoverMillis.getMax();
        long missedTakeovers = takeovers.stream().filter(t -> !t.happened()).count();
        Set<Long> pausedPids = faults.pauses().stream().map(FaultLog.Pause::pid).collect(Collectors.toSet());
        long databaseErrors = workers.stream().mapToLong(w -> w.count(" EVENT DBERROR ")).sum();
        long lostLeases = workers.stream().mapToLong(w -> w.count(" EVENT LOST ")).sum();
        long lostLeasesPaused = workers.stream().filter(w -> pausedPids.contains(w.pid()))
                .mapToLong(w -> w.count(" EVENT LOST ")).sum();
        List<String> unexpectedLines = workers.stream().flatMap(w -> w.unexpectedLines().stream()
                .map(line -> w.name() + ": " + line)).toList();
        List<String> abnormalExits = workers.stream().filter(WorkerOutcome::abnormalExit)
                .map(w -> w.name() + " exit " + w.exitCode()).toList();
        List<Long> skews = workers.stream().map(WorkerOutcome::skewMillis).toList();

        // The new faults and the bounds, from the workers' events.
        Map<WorkerOutcome, WorkerEvents> events = new java.util.LinkedHashMap<>();
        workers.forEach(w -> events.put(w, WorkerEvents.of(w)));
        long lateMillis = options.ttl().toMillis() + CLOCK_SLACK_MILLIS;
        List<String> lostUnderPool = new ArrayList<>();
        long lostAfterCut = 0;
        long hogsPastTtl = 0;
        long exhausted = 0;
        int maxHeld = 0;
        int poolSize = 0;
        for (FaultLog.PoolHog hog : faults.poolHogs()) {
            for (Map.Entry<WorkerOutcome, WorkerEvents> worker : events.entrySet()) {
                if (worker.getKey().pid() != hog.pid()) {
                    continue;
                }
                // The database cut the worker's sessions, perhaps the watchdog's reserved connection, just before or
                // while its work held the rest of the pool: the replacement has to come from that pool.
                boolean cut = faults.disconnects().stream().anyMatch(d -> d.worker().equals(hog.worker())
                        && within(d.at(), hog.from().minus(options.ttl()), hog.to()));
                for (WorkerEvents.Lost lost : worker.getValue().lost()) {
                    if (!within(lost.at(), hog.from(), hog.to().plusMillis(lateMillis))
                            || pausedAt(faults, hog.pid(), lost.at(), options)) {
                        continue;
                    }
                    if (cut) {
                        lostAfterCut++;
                    }
                    else {
                        lostUnderPool.add(worker.getKey().name() + " lost " + lost.lease() + " at " + lost.at() + ": "
                                + lost.detail());
                    }
                }
                for (WorkerEvents.Hog section : worker.getValue().hogs()) {
                    if (within(section.at(), hog.from(), hog.to().plusMillis(CLOCK_SLACK_MILLIS))) {
                        hogsPastTtl += section.heldMillis() > options.ttl().toMillis() ? 1 : 0;
                        exhausted += section.exhausted() ? 1 : 0;
                        maxHeld = Math.max(maxHeld, section.connections());
                        poolSize = Math.max(poolSize, section.poolSize());
                    }
                }
            }
        }
        List<String> lostBesideStalledRows = new ArrayList<>();
        long lostOnStalledRows = 0;
        List<String> slowProbes = new ArrayList<>();
        long maxProbeMillis = 0;
        for (FaultLog.RowLock rowLock : faults.rowLocks()) {
            for (FaultLog.Probe probe : rowLock.probes()) {
                maxProbeMillis = Math.max(maxProbeMillis, probe.millis());
                if (probe.acquired() || probe.failure() != null || probe.millis() > options.callBound().toMillis()) {
                    slowProbes.add(probe.resource() + (probe.acquired() ? " ACQUIRED" : " not acquired") + " in "
                            + probe.millis() + " ms" + (probe.failure() != null ? ": " + probe.failure() : ""));
                }
            }
            for (Map.Entry<WorkerOutcome, WorkerEvents> worker : events.entrySet()) {
                for (WorkerEvents.Lost lost : worker.getValue().lost()) {
                    if (!within(lost.at(), rowLock.from(), rowLock.to().plusMillis(lateMillis))
                            || pausedAt(faults, worker.getKey().pid(), lost.at(), options)) {
                        continue;
                    }
                    if (rowLock.resources().contains(lost.resource())) {
                        lostOnStalledRows++;
                    }
                    else {
                        lostBesideStalledRows.add(worker.getKey().name() + " lost " + lost.lease() + " at "
                                + lost.at() + " beside stalled " + rowLock.resources() + ": " + lost.detail());
                    }
                }
            }
        }
        long callBound = options.callBound().toMillis();
        long maxRelease = 0;
        long maxAcquire = 0;
        long releasesExcused = 0;
        List<String> slowCalls = new ArrayList<>();
        List<String> lostMiscounted = new ArrayList<>();
        for (Map.Entry<WorkerOutcome, WorkerEvents> worker : events.entrySet()) {
            WorkerOutcome outcome = worker.getKey();
            WorkerEvents seen = worker.getValue();
            Map<String, Long> done = seen.done();
            if (done != null) {
                long unreported = done.getOrDefault("max_release_ms", 0L);
                if (unreported < 300) {
                    maxRelease = Math.max(maxRelease, unreported);
                }
            }
            for (WorkerEvents.TimedCall release : seen.releases()) {
                if (stoppedDuring(faults, outcome.pid(), release)) {
                    releasesExcused++;
                    continue;
                }
                maxRelease = Math.max(maxRelease, release.millis());
                if (release.millis() > callBound) {
                    slowCalls.add(outcome.name() + " release " + release.detail());
                }
            }
            for (WorkerEvents.TimedCall acquire : seen.acquires()) {
                if (stoppedDuring(faults, outcome.pid(), acquire)) {
                    continue;
                }
                maxAcquire = Math.max(maxAcquire, acquire.millis());
                if (acquire.millis() > callBound) {
                    slowCalls.add(outcome.name() + " acquire " + acquire.detail());
                }
            }
            Map<String, Long> toldCounts = seen.lost().stream().collect(Collectors.groupingBy(WorkerEvents.Lost::lease,
                    Collectors.counting()));
            Map<String, Long> reportedCounts = seen.reported().stream()
                    .collect(Collectors.groupingBy(WorkerEvents.Lost::lease, Collectors.counting()));
            toldCounts.forEach((lease, count) -> {
                if (count > 1) {
                    lostMiscounted.add(outcome.name() + ": " + lease + " told lost " + count + " times");
                }
            });
            reportedCounts.forEach((lease, count) -> {
                if (count > 1) {
                    lostMiscounted.add(outcome.name() + ": " + lease + " reported lost by " + count + " calls");
                }
            });
            if (done != null) {
                toldCounts.keySet().stream().filter(lease -> !reportedCounts.containsKey(lease))
                        .forEach(lease -> lostMiscounted.add(outcome.name() + ": " + lease + " told lost, but "
                                + "runLocked did not report it"));
                reportedCounts.keySet().stream().filter(lease -> !toldCounts.containsKey(lease))
                        .forEach(lease -> lostMiscounted.add(outcome.name() + ": " + lease + " reported lost by "
                                + "runLocked, but the listener was not told"));
                if (done.getOrDefault("lost_leases", -1L) != seen.lost().size()
                        || done.getOrDefault("reported_lost", -1L) != seen.reported().size()) {
                    lostMiscounted.add(outcome.name() + ": counted lost_leases=" + done.get("lost_leases")
                            + " reported_lost=" + done.get("reported_lost") + ", printed " + seen.lost().size()
                            + " and " + seen.reported().size());
                }
            }
        }
        long reportedLost = events.values().stream().mapToLong(e -> e.reported().size()).sum();

        out.println();
        out.printf("figures (%s, %d worker processes in all, ttl %d ms, statement timeout %d ms)%n",
                options.storeId(), workers.size(), options.ttl().toMillis(),
                TortureOptions.STATEMENT_TIMEOUT.toMillis());
        out.printf("  sections    %d on %d locks; counters sum to %d; %d lost updates; %d overlapping pairs of sections:"
                + " %d with a paused holder, %d where the older holder wrote after its lease was known lost (its row"
                + " stalled, or an unplanned pause: the process was starved past its TTL), %d unexplained%n", sections.size(),
                counters.size(), counters.values().stream().mapToLong(Long::longValue).sum(), lostUpdates, overlaps,
                overlapsPaused, overlapsToldLost, unexplainedOverlaps);
        out.printf("  ledger      %d fenced writes: %d accepted, %d refused as stale; %d accepted from a holder "
                + "already superseded but before any newer token was written%n", ledger.size(),
                ledger.size() - refused, refused, lateAccepted);
        out.printf("  kill        %d workers killed while holding a lock, %d locks to take over: %s (bound %d ms)%s%n",
                faults.kills().size(), takeovers.size(), takeoverMillis.getCount() == 0 ? "none measured"
                        : "max " + maxTakeover + " ms, mean " + Math.round(takeoverMillis.getAverage()) + " ms",
                options.takeoverBound().toMillis(), skippedNote(faults, Fault.KILL));
        out.printf("  pause       %d holders stopped for %d ms each; %d lost updates, %d overlaps with a paused holder;"
                + " %d stale writes refused%s%n", faults.pauses().size(), options.pauseLength().toMillis(),
                lostUpdates, overlapsPaused, refused, skippedNote(faults, Fault.PAUSE));
        out.printf("  disconnect  %d times, %d %s cut; workers saw %d database errors (documented), %d leases "
                + "found lost (%d in paused workers)%s%n", faults.disconnects().size(),
                faults.disconnects().stream().mapToInt(FaultLog.Disconnect::sessions).sum(),
                options.store() == LockStore.REDIS ? "Redis connections" : "sessions", databaseErrors,
                lostLeases, lostLeasesPaused, skippedNote(faults, Fault.DISCONNECT));
        if (options.faults().contains(Fault.POOL)) {
            out.printf("  pool        %d times: %d guarded sections held pooled connections in open transactions past "
                    + "the TTL (up to %d of a pool of %d), %d of them while every connection was in use, the "
                    + "watchdog's included; %d leases lost meanwhile, and %d more after the database cut that "
                    + "worker's sessions (told lost; its reserved connection's replacement waits for the pool)%s%n",
                    faults.poolHogs().size(), hogsPastTtl, maxHeld, poolSize, exhausted, lostUnderPool.size(),
                    lostAfterCut, skippedNote(faults, Fault.POOL));
        }
        else {
            out.println("  pool        off");
        }
        if (options.faults().contains(Fault.ROWLOCK)) {
            out.printf("  rowlock     %d times, %d rows held for %d ms each, %d times a row of a worker holding other "
                    + "leases: the controller's acquires answered in at most %d ms; %d leases lost on stalled rows, "
                    + "%d beside them%s%n", faults.rowLocks().size(),
                    faults.rowLocks().stream().mapToInt(r -> r.resources().size()).sum(),
                    options.rowLockLength().toMillis(), faults.rowLocks().stream().filter(r -> r.holderLeases() > 1)
                            .count(), maxProbeMillis, lostOnStalledRows, lostBesideStalledRows.size(),
                    skippedNote(faults, Fault.ROWLOCK));
        }
        else {
            out.println("  rowlock     off");
        }
        out.printf("  bounds      slowest release %d ms, slowest acquire %d ms (bound %d ms; %d releases in stopped "
                + "workers left out); %d leases reported lost by runLocked%n", maxRelease, maxAcquire, callBound,
                releasesExcused, reportedLost);
        out.printf("  skew        %s%n", options.faults().contains(Fault.SKEW)
                ? skews.size() + " workers with application clocks offset from " + seconds(min(skews)) + " to "
                        + seconds(max(skews)) + "; expiry is decided by the database clock"
                : "off");
        out.printf("  workers     %d unexpected exceptions or library errors, %d abnormal exits%n",
                unexpectedLines.size(), abnormalExits.size());
        unexpectedLines.stream().limit(20).forEach(line -> out.println("    " + line));
        abnormalExits.forEach(line -> out.println("    " + line));
        inconsistencies.forEach(line -> out.println("    ledger inconsistent: " + line));
        lostUnderPool.stream().limit(10).forEach(line -> out.println("    under pool: " + line));
        lostBesideStalledRows.stream().limit(10).forEach(line -> out.println("    beside a stalled row: " + line));
        slowProbes.stream().limit(10).forEach(line -> out.println("    probe: " + line));
        slowCalls.stream().limit(10).forEach(line -> out.println("    slow: " + line));
        lostMiscounted.stream().limit(10).forEach(line -> out.println("    miscounted: " + line));

        boolean withPause = options.faults().contains(Fault.PAUSE);
        boolean losesLeases = withPause || options.faults().contains(Fault.ROWLOCK);
        List<Boolean> results = new ArrayList<>();
        out.println("criteria");
        results.add(criterion(staleAccepted == 0, "stale_writes_accepted=0 (" + staleAccepted + ")"));
        results.add(criterion(orderViolations == 0 && refusedAboveAccepted == 0 && inconsistencies.isEmpty(),
                "ledger tokens strictly increase in commit order (" + orderViolations + " violations, "
                        + refusedAboveAccepted + " refused above the highest accepted, " + inconsistencies.size()
                        + " inconsistencies with the head or the fence)"));
        results.add(criterion(losesLeases ? lostUpdates >= 0 : lostUpdates == 0, losesLeases
                ? "lost_updates reported, expected with pause or rowlock (" + lostUpdates + ")"
                : "lost_updates=0 without pause and rowlock (" + lostUpdates + ")"));
        results.add(criterion(unexplainedOverlaps == 0, "every overlap of two holders involves a paused holder or one "
                + "that wrote after its lease was known lost (" + unexplainedOverlaps + " do not)"));
        results.add(criterion(missedTakeovers == 0 && maxTakeover <= options.takeoverBound().toMillis(),
                "after a kill the lock is taken again within TTL + one retry interval + "
                        + TortureOptions.SCHEDULING_TOLERANCE.toMillis() + " ms = " + options.takeoverBound().toMillis()
                        + " ms (max " + maxTakeover + " ms, " + missedTakeovers + " never taken)"));
        if (options.faults().contains(Fault.POOL)) {
            results.add(criterion(lostUnderPool.isEmpty() && exhausted > 0, "no lease lost while its worker's guarded "
                    + "work held every connection of its pool but the watchdog's, unless the database cut that "
                    + "worker's sessions meanwhile (" + lostUnderPool.size() + " lost; " + lostAfterCut
                    + " after a cut; " + exhausted + " sections exhausted the pool)"));
        }
        if (options.faults().contains(Fault.ROWLOCK)) {
            results.add(criterion(slowProbes.isEmpty(), "an acquire of a stalled lock answers not acquired within "
                    + callBound + " ms (" + slowProbes.size() + " did not)"));
            results.add(criterion(lostBesideStalledRows.isEmpty(), "the watchdog keeps the leases beside a stalled "
                    + "row (" + lostBesideStalledRows.size() + " lost)"));
        }
        results.add(criterion(slowCalls.isEmpty(), "no release and no acquire slower than the statement timeout + "
                + TortureOptions.CALL_MARGIN.toMillis() + " ms = " + callBound + " ms (max release " + maxRelease
                + " ms, max acquire " + maxAcquire + " ms)"));
        results.add(criterion(lostMiscounted.isEmpty(), "every lost lease told once and reported once by runLocked ("
                + lostMiscounted.size() + " discrepancies)"));
        results.add(criterion(unexpectedLines.isEmpty() && abnormalExits.isEmpty(),
                "no exception escapes other than the documented ones (" + unexpectedLines.size() + " unexpected, "
                        + abnormalExits.size() + " abnormal exits)"));
        results.add(criterion(sections.size() > 0 && injected(faults, workers), "work was done and every requested "
                + "fault was injected (" + options.faultList() + ")"));
        boolean passed = results.stream().allMatch(Boolean::booleanValue);
        String line = String.format("TORTURE db=%s processes=%d sections=%d lost_updates=%d stale_writes_accepted=%d "
                + "stale_writes_refused=%d kills=%d pauses=%d disconnects=%d max_takeover_ms=%d pool=%d rowlocks=%d "
                + "max_release_ms=%d", options.storeId(), options.processes(), sections.size(), lostUpdates,
                staleAccepted, refused, faults.kills().size(), faults.pauses().size(), faults.disconnects().size(),
                maxTakeover, faults.poolHogs().size(), faults.rowLocks().size(), maxRelease);
        out.println(passed ? "PASSED" : "FAILED");
        out.println(line);
        return new Verdict(passed, sections.size(), lostUpdates, staleAccepted, refused, faults.kills().size(),
                faults.pauses().size(), faults.disconnects().size(), maxTakeover, unexplainedOverlaps, orderViolations,
                unexpectedLines.size() + abnormalExits.size(), faults.poolHogs().size(), faults.rowLocks().size(),
                maxRelease, lostUnderPool.size(), lostBesideStalledRows.size(), slowProbes.size(), slowCalls.size(),
                lostMiscounted.size(), line);
    }

    private boolean injected(FaultLog faults, List<WorkerOutcome> workers) {
        Set<Fault> requested = options.faults();
        return (!requested.contains(Fault.KILL) || !faults.kills().isEmpty())
                && (!requested.contains(Fault.PAUSE) || !faults.pauses().isEmpty())
                && (!requested.contains(Fault.DISCONNECT) || !faults.disconnects().isEmpty())
                && (!requested.contains(Fault.POOL) || !faults.poolHogs().isEmpty())
                && (!requested.contains(Fault.ROWLOCK) || !faults.rowLocks().isEmpty())
                && (!requested.contains(Fault.SKEW) || workers.stream().allMatch(w -> w.skewMillis() != 0));
    }

    private static boolean within(Instant at, Instant from, Instant to) {
        return !at.isBefore(from.minusMillis(CLOCK_SLACK_MILLIS)) && !at.isAfter(to.plusMillis(CLOCK_SLACK_MILLIS));
    }

    /** Whether the worker was stopped at some point in the TTL before {@code at}: a lease lost then is the pause's. */
    private static boolean pausedAt(FaultLog faults, long pid, Instant at, TortureOptions options) {
        Instant from = at.minus(options.ttl()).minusMillis(CLOCK_SLACK_MILLIS);
        return faults.pauses().stream().anyMatch(p -> p.covers(pid, from, at.plusMillis(CLOCK_SLACK_MILLIS)));
    }

    /** Whether the worker was stopped while the call ran: the call's time is the pause's. */
    private static boolean stoppedDuring(FaultLog faults, long pid, WorkerEvents.TimedCall call) {
        return faults.pauses().stream().anyMatch(p -> p.covers(pid, call.start().minusMillis(CLOCK_SLACK_MILLIS),
                call.end().plusMillis(CLOCK_SLACK_MILLIS)));
    }

    private static boolean paused(FaultLog faults, Section section) {
        return faults.pauses().stream().anyMatch(p -> p.covers(section.pid(), section.startedAt(), section.endedAt()));
    }

    /** Whether a section with a higher token had started before this write: its holder was superseded. */
    private static boolean supersededBefore(List<Section> sections, LedgerWrite write) {
        return sections.stream().anyMatch(s -> s.token() > write.token() && s.startedAt().isBefore(write.writtenAt()));
    }

    private boolean criterion(boolean passed, String description) {
        out.println("  " + (passed ? "PASS " : "FAIL ") + description);
        return passed;
    }

    private static String skippedNote(FaultLog faults, Fault fault) {
        int skipped = faults.skipCount(fault);
        return skipped == 0 ? "" : "; " + skipped + " skipped, no holder found";
    }

    private static long min(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).min().orElse(0);
    }

    private static long max(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).max().orElse(0);
    }

    private static String seconds(long millis) {
        return String.format("%+.1f s", millis / 1000.0);
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
