package io.distlock.torture;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The events one worker printed, as the checker reads them: leases lost (the listener) and lost as {@code runLocked}
 * reported them, slow releases and acquires, sections that held a pooled connection, and the worker's own counts in
 * its {@code DONE} line (absent when it was killed).
 */
final class WorkerEvents {

    /** A lease the listener was told was lost, or that {@code runLocked} reported lost. */
    record Lost(String resource, long token, Instant at, String detail) {

        String lease() {
            return resource + " token " + token;
        }
    }

    /** A release or acquire that took {@code millis}, ending at {@code end} (the worker's wall clock). */
    record TimedCall(String resource, long millis, Instant end, String detail) {

        Instant start() {
            return end.minusMillis(millis);
        }
    }

    /**
     * A section that held the pool's free connections in open transactions under the pool fault.
     *
     * @param resource its lock
     * @param heldMillis for how long
     * @param connections how many connections it held
     * @param maxActive the most connections of the pool in use meanwhile
     * @param poolSize the pool's size
     * @param leaseLost whether its lease was lost by the end
     * @param at when it gave them back
     */
    record Hog(String resource, long heldMillis, int connections, int maxActive, int poolSize, boolean leaseLost,
            Instant at) {

        /** Whether every connection of the pool was in use: the ones it held and the watchdog's. */
        boolean exhausted() {
            return maxActive >= poolSize;
        }
    }

    private final List<Lost> lost = new ArrayList<>();

    private final List<Lost> reported = new ArrayList<>();

    private final List<TimedCall> releases = new ArrayList<>();

    private final List<TimedCall> acquires = new ArrayList<>();

    private final List<Hog> hogs = new ArrayList<>();

    private @Nullable Map<String, Long> done;

    private WorkerEvents() {
    }

    static WorkerEvents of(WorkerOutcome worker) {
        WorkerEvents events = new WorkerEvents();
        for (String line : worker.logLines()) {
            int marker = line.indexOf(" EVENT ");
            if (marker <= 0) {
                continue;
            }
            Instant at;
            try {
                at = Instant.parse(line.substring(0, marker));
            }
            catch (DateTimeParseException ex) {
                continue;
            }
            String rest = line.substring(marker + " EVENT ".length());
            int space = rest.indexOf(' ');
            String kind = space < 0 ? rest : rest.substring(0, space);
            String detail = space < 0 ? "" : rest.substring(space + 1);
            events.add(kind, detail, at);
        }
        return events;
    }

    private void add(String kind, String detail, Instant at) {
        switch (kind) {
            case "LOST" -> lost.add(lost(detail, at));
            case "REPORTED_LOST" -> reported.add(lost(detail, at));
            case "RELEASE" -> releases.add(timed(detail));
            case "SLOWACQUIRE" -> acquires.add(timed(detail));
            case "HOG" -> {
                Map<String, String> values = values(detail);
                hogs.add(new Hog(firstWord(detail), number(values, "held_ms"), (int) number(values, "connections"),
                        (int) number(values, "max_active"), (int) number(values, "pool"),
                        "true".equals(values.get("lease_lost")), at));
            }
            case "DONE" -> {
                Map<String, Long> counts = new HashMap<>();
                values(detail).forEach((key, value) -> {
                    try {
                        counts.put(key, Long.parseLong(value));
                    }
                    catch (NumberFormatException ex) {
                        // Not a count.
                    }
                });
                done = counts;
            }
            default -> {
                // Other events are counted by WorkerOutcome.
            }
        }
    }

    /** {@code <resource> token=<n>: <reason>} */
    private static Lost lost(String detail, Instant at) {
        int colon = detail.indexOf(": ");
        String head = colon < 0 ? detail : detail.substring(0, colon);
        return new Lost(firstWord(head), number(values(head), "token"), at,
                colon < 0 ? "" : detail.substring(colon + 2));
    }

    /** {@code <resource> … ms=<n> … end=<instant>} */
    private static TimedCall timed(String detail) {
        Map<String, String> values = values(detail);
        Instant end;
        try {
            end = Instant.parse(values.getOrDefault("end", ""));
        }
        catch (DateTimeParseException ex) {
            end = Instant.EPOCH;
        }
        return new TimedCall(firstWord(detail), number(values, "ms"), end, detail);
    }

    private static String firstWord(String text) {
        int space = text.indexOf(' ');
        return space < 0 ? text : text.substring(0, space);
    }

    private static Map<String, String> values(String text) {
        Map<String, String> values = new HashMap<>();
        for (String word : text.split("\\s+")) {
            int equals = word.indexOf('=');
            if (equals > 0) {
                values.put(word.substring(0, equals), word.substring(equals + 1).replaceAll("[:,]$", ""));
            }
        }
        return values;
    }

    private static long number(Map<String, String> values, String key) {
        try {
            return Long.parseLong(values.getOrDefault(key, "-1"));
        }
        catch (NumberFormatException ex) {
            return -1;
        }
    }

    List<Lost> lost() {
        return lost;
    }

    List<Lost> reported() {
        return reported;
    }

    List<TimedCall> releases() {
        return releases;
    }

    List<TimedCall> acquires() {
        return acquires;
    }

    List<Hog> hogs() {
        return hogs;
    }

    /** The counts of the worker's {@code DONE} line, or {@code null} when it never printed one. */
    @Nullable Map<String, Long> done() {
        return done;
    }
}
