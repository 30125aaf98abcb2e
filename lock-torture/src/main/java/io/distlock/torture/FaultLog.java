package io.distlock.torture;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

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

    /**
     * A worker's connections to the lock store cut: its database sessions ({@code worker} is {@code all} when the H2
     * server was restarted), or its Redis client connections.
     */
    record Disconnect(String worker, Instant at, int sessions) {
    }

    /**
     * The pool fault: from {@code from} to {@code to} (the protected resources' database clock) the worker's guarded
     * sections held pooled connections in open transactions.
     *
     * @param worker the worker's name
     * @param pid its process id
     * @param from when the worker was told to hold connections
     * @param to when the last section that did so had given its connection back
     * @param sectionsHolding how many of its sections held a connection
     */
    record PoolHog(String worker, long pid, Instant from, Instant to, int sectionsHolding) {
    }

    /**
     * The rowlock fault: the controller's own transaction held these lock rows with {@code SELECT … FOR UPDATE}.
     *
     * @param resources the locks whose rows were held
     * @param holder the worker that held the first of them when the stall began
     * @param holderPid its process id
     * @param holderLeases how many locks that worker held then
     * @param from when the rows were locked (the protected resources' database clock)
     * @param to when the transaction committed
     * @param probes the controller's own acquires of the stalled locks meanwhile
     */
    record RowLock(List<String> resources, String holder, long holderPid, int holderLeases, Instant from, Instant to,
            List<Probe> probes) {
    }

    /**
     * An acquire of a stalled lock by the controller's own repository, with the workers' statement timeout.
     *
     * @param resource the lock
     * @param millis how long it took to answer
     * @param acquired whether it answered with a lock (it must not)
     * @param failure the exception it threw instead, or {@code null}
     */
    record Probe(String resource, long millis, boolean acquired, @Nullable String failure) {
    }

    private final List<Kill> kills = Collections.synchronizedList(new ArrayList<>());

    private final List<Pause> pauses = Collections.synchronizedList(new ArrayList<>());

    private final List<Disconnect> disconnects = Collections.synchronizedList(new ArrayList<>());

    private final List<PoolHog> poolHogs = Collections.synchronizedList(new ArrayList<>());

    private final List<RowLock> rowLocks = Collections.synchronizedList(new ArrayList<>());

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

    void add(PoolHog hog) {
        poolHogs.add(hog);
    }

    void add(RowLock rowLock) {
        rowLocks.add(rowLock);
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

    List<PoolHog> poolHogs() {
        return List.copyOf(poolHogs);
    }

    List<RowLock> rowLocks() {
        return List.copyOf(rowLocks);
    }

    int skipCount(Fault fault) {
        return skipped.getOrDefault(fault, 0);
    }
}
