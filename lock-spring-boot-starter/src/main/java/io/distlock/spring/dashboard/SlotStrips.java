package io.distlock.spring.dashboard;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import io.distlock.core.LockRecord;
import io.distlock.core.MissedSlotPolicy;
import io.distlock.core.MissedSlots;
import io.distlock.core.SlotRun;
import io.distlock.core.SlotRunOutcome;
import io.distlock.core.SlotSchedule;
import io.distlock.spring.slot.SlotJobs.SlotJob;
import org.jspecify.annotations.Nullable;

/**
 * The slot jobs table: one row per {@code @OncePerSlot} job, declared here or found in the slot history, with its
 * schedule, its next fire time, its last outcome and a strip of its recent slots. The strip holds the runs the history
 * keeps and, where the job's schedule is known here, the slots between them that no replica ran: missed (or skipped,
 * for the missed slots a catch-up policy leaves unrun), and the slots overdue since the latest run. A run still
 * marked running whose holder's lease is gone is shown crashed at once, before the next claim records it so.
 */
final class SlotStrips {

    /** The most cells a strip shows, the newest ones. */
    static final int MAX_CELLS = 40;

    /** Missed slots shown one cell each; a longer gap is one cell with its count. */
    static final int MAX_SINGLE_MISSED = 3;

    /** How long after its fire time a slot without a run counts as missed. */
    static final Duration GRACE = Duration.ofSeconds(5);

    /** Runs that started this long before the locks were read are judged by the lock of their job. */
    private static final Duration CLAIM_MARGIN = Duration.ofSeconds(2);

    /**
     * The rows of every job.
     *
     * @param declared the jobs this application declares
     * @param snapshot the store's locks and slot runs
     * @param now this application's clock
     * @param fullOwners whether owners are shown in full
     * @return the rows, ordered by job
     */
    List<JobRow> rows(List<SlotJob> declared, LockSnapshot snapshot, Instant now, boolean fullOwners) {
        Map<String, List<SlotRun>> runsByJob = snapshot.runs().stream()
                .collect(Collectors.groupingBy(SlotRun::job, TreeMap::new, Collectors.toList()));
        Map<String, SlotJob> declaredByJob = new LinkedHashMap<>();
        declared.forEach(job -> declaredByJob.put(job.job(), job));
        Map<String, Long> liveTokens = snapshot.locks().stream()
                .collect(Collectors.toMap(LockRecord::resource, LockRecord::token, (a, b) -> a));
        Set<String> jobs = new java.util.TreeSet<>(declaredByJob.keySet());
        jobs.addAll(runsByJob.keySet());
        List<JobRow> rows = new ArrayList<>();
        for (String job : jobs) {
            rows.add(row(job, declaredByJob.get(job), runsByJob.getOrDefault(job, List.of()), liveTokens.get(job),
                    snapshot.readAt(), now, fullOwners));
        }
        return rows;
    }

    private JobRow row(String job, @Nullable SlotJob declared, List<SlotRun> newestFirst, @Nullable Long liveToken,
            Instant readAt, Instant now, boolean fullOwners) {
        SlotSchedule schedule = declared != null ? declared.slots() : null;
        boolean catchUp = declared != null && declared.onMissed() == MissedSlotPolicy.CATCH_UP;
        List<SlotRun> runs = newestFirst.stream()
                .sorted(Comparator.comparing(SlotRun::slot).thenComparingInt(SlotRun::run)).toList();
        List<Cell> cells = new ArrayList<>();
        SlotRun previous = null;
        for (SlotRun run : runs) {
            if (previous != null && schedule != null && run.slot().isAfter(previous.slot())) {
                addMissed(cells, schedule, previous.slot(), run.slot(), catchUp, false);
            }
            cells.add(runCell(run, liveToken, readAt, fullOwners));
            previous = run;
        }
        if (previous != null && schedule != null) {
            addMissed(cells, schedule, previous.slot(), now.minus(GRACE), false, true);
        }
        List<Cell> shown = cells.size() <= MAX_CELLS ? cells : cells.subList(cells.size() - MAX_CELLS, cells.size());
        Instant next = schedule != null ? schedule.next(now) : null;
        Cell last = null;
        for (int i = cells.size() - 1; i >= 0 && last == null; i--) {
            if (cells.get(i).run() > 0) {
                last = cells.get(i);
            }
        }
        return new JobRow(job, declared != null, declared != null ? declared.schedule() : null,
                declared != null ? declared.method() : null,
                declared != null ? declared.onCrash().name() : null, declared != null ? declared.onMissed().name() : null,
                next != null ? next.toString() : null, next != null ? Duration.between(now, next).toMillis() : null,
                last, count(shown, "missed") + count(shown, "skipped"), count(shown, "crashed"), count(shown, "failed"),
                count(shown, "lost"), List.copyOf(shown));
    }

    private static Cell runCell(SlotRun run, @Nullable Long liveToken, Instant readAt, boolean fullOwners) {
        String kind = run.outcome().name().toLowerCase(Locale.ROOT);
        String note = null;
        if (run.outcome() == SlotRunOutcome.RUNNING && (liveToken == null || liveToken != run.token())
                && run.startedAt().isBefore(readAt.minus(CLAIM_MARGIN))) {
            kind = "crashed";
            note = "Still marked running, but its holder's lease is gone: it stopped mid-run. The next claim of the "
                    + "job records it as crashed.";
        }
        Long duration = run.finishedAt() != null ? Duration.between(run.startedAt(), run.finishedAt()).toMillis()
                : null;
        return new Cell(kind, run.slot().toString(), null, 1, run.run(), Owners.instance(run.owner()),
                Owners.shown(run.owner(), fullOwners), run.token(), run.startedAt().toString(),
                run.finishedAt() != null ? run.finishedAt().toString() : null, duration, false, note);
    }

    /**
     * Adds the slots strictly between two instants that no run is recorded for.
     *
     * @param leftByCatchUp whether a catch-up policy left them unrun: it claimed and ran the latest missed slot as a
     *     run of its own, the run after them
     * @param overdue whether they come after the latest run, so that a late claim may still run the newest
     */
    private static void addMissed(List<Cell> cells, SlotSchedule schedule, Instant after, Instant before,
            boolean leftByCatchUp, boolean overdue) {
        if (!before.isAfter(after)) {
            return;
        }
        MissedSlots missed = MissedSlots.between(schedule, after, before);
        if (missed.isEmpty()) {
            return;
        }
        String why = overdue ? "No replica has claimed it since it was due." : "No replica ran it: every replica was "
                + "down, or still busy with an earlier run, or refused it.";
        String leftUnrun = "Missed, and left unrun: the catch-up policy ran only the latest missed slot once, as the "
                + "run after them. ";
        if (missed.count() > MAX_SINGLE_MISSED) {
            cells.add(new Cell(leftByCatchUp ? "skipped" : "missed", String.valueOf(missed.first()),
                    String.valueOf(missed.last()), missed.count(), 0, "", "", null, null, null, null, overdue,
                    (leftByCatchUp ? leftUnrun : "") + missed + ". " + why));
            return;
        }
        List<Instant> slots = new ArrayList<>();
        for (Instant at = schedule.next(after); at != null && slots.size() < missed.count(); at = schedule.next(at)) {
            if (at.isAfter(after)) {
                slots.add(at.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
            }
        }
        for (Instant slot : slots) {
            cells.add(new Cell(leftByCatchUp ? "skipped" : "missed", slot.toString(), null, 1, 0, "", "", null, null,
                    null, null, overdue, (leftByCatchUp ? leftUnrun : "") + why));
        }
    }

    private static long count(List<Cell> cells, String kind) {
        return cells.stream().filter(cell -> cell.kind().equals(kind)).mapToLong(Cell::count).sum();
    }

    /**
     * One job.
     *
     * @param job the job's name
     * @param declared whether this application declares it (else only the slot history names it)
     * @param schedule its trigger in words, when declared here
     * @param method the scheduled method, when declared here
     * @param onCrash its crash policy, when declared here
     * @param onMissed its missed-slot policy, when declared here
     * @param nextFireAt its next fire time, when declared here
     * @param nextFireInMillis time until then, by this application's clock
     * @param last its latest run, or {@code null} before its first
     * @param missed missed and skipped slots in the strip
     * @param crashed crashed runs in the strip
     * @param failed failed runs in the strip
     * @param lost runs in the strip that lost their lease
     * @param cells the strip, oldest first
     */
    record JobRow(String job, boolean declared, @Nullable String schedule, @Nullable String method,
            @Nullable String onCrash, @Nullable String onMissed, @Nullable String nextFireAt,
            @Nullable Long nextFireInMillis, @Nullable Cell last, long missed, long crashed, long failed, long lost,
            List<Cell> cells) {
    }

    /**
     * One slot of a strip: a run, or slots no replica ran.
     *
     * @param kind {@code succeeded}, {@code failed}, {@code lost}, {@code crashed}, {@code running}, {@code missed}
     *     or {@code skipped}
     * @param slot the slot, the first of a gap
     * @param lastSlot the last slot of a gap of several, else {@code null}
     * @param count how many slots the cell stands for
     * @param run 1, 2 for a re-run after a crash, or 0 for slots no replica ran
     * @param instance the instance that ran it, or empty
     * @param owner the run's owner, in full or its fingerprint, or empty
     * @param token the run's fencing token
     * @param startedAt when the run claimed the slot
     * @param finishedAt when the run ended
     * @param durationMillis how long the run took
     * @param overdue whether the slot is after the latest run: a late claim may still run it
     * @param note what to know beyond the kind, or {@code null}
     */
    record Cell(String kind, String slot, @Nullable String lastSlot, long count, int run, String instance,
            String owner, @Nullable Long token, @Nullable String startedAt, @Nullable String finishedAt,
            @Nullable Long durationMillis, boolean overdue, @Nullable String note) {
    }
}
