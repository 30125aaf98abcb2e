package io.distlock.torture;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the controller did to the workers, with database-clock times, for the checker.
 */
final class FaultLog {

    /** A worker killed with SIGKILL, and what happened to each lock it held. */
    record Kill(String worker, long pid, Instant killedAt, List<Takeover> takeovers) {
    }

    /**
     * A lock held by a killed worker.
     *
     * @param lock the lock's name
     * @param killedToken the killed holder's token
     * @param newToken the next holder's token, or -1 when nobody took the lock in time
     * @param takeoverMillis from the kill to the next holder's acquisition (database clock), or -1
     */
    record Takeover(String lock, long killedToken, long newToken, long takeoverMillis) {

        boolean happened() {
            return newToken >= 0;
        }
    }

    /** A worker stopped with SIGSTOP from {@code from} to {@code to} (database clock). */
    record Pause(String worker, long pid, Instant from, Instant to) {

        boolean covers(long workerPid, Instant start, Instant end) {
            return pid == workerPid && from.isBefore(end) && to.isAfter(start);
        }
    }

    /** A worker's sessions terminated ({@code worker} is {@code all} when the H2 server was restarted). */
    record Disconnect(String worker, Instant at, int sessions) {
    }

    private final List<Kill> kills = Collections.synchronizedList(new ArrayList<>());

    private final List<Pause> pauses = Collections.synchronizedList(new ArrayList<>());

    private final List<Disconnect> disconnects = Collections.synchronizedList(new ArrayList<>());

    private final Map<Fault, Integer> skipped = Collections.synchronizedMap(new EnumMap<>(Fault.class));

    void add(Kill kill) {
        kills.add(kill);
    }

    void add(Pause pause) {
        pauses.add(pause);
    }

    void add(Disconnect disconnect) {
        disconnects.add(disconnect);
    }

    /** Counts a fault that found no lock holder to hit. */
    void skip(Fault fault) {
        skipped.merge(fault, 1, Integer::sum);
    }

    List<Kill> kills() {
        return List.copyOf(kills);
    }

    List<Pause> pauses() {
        return List.copyOf(pauses);
    }

    List<Disconnect> disconnects() {
        return List.copyOf(disconnects);
    }

    int skipCount(Fault fault) {
        return skipped.getOrDefault(fault, 0);
    }
}
