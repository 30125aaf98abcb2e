package io.distlock.torture;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;

import io.distlock.testsupport.TestDatabase;

/**
 * What one torture run does.
 *
 * @param database the database the workers share
 * @param processes how many worker JVMs run at once
 * @param duration how long faults are injected; workers stop afterwards
 * @param faults the faults to inject
 * @param threads lock-taking threads per worker
 * @param locks how many locks the threads contend for
 * @param ttl the lease length; the watchdog renews at a third of it
 * @param runDirectory where worker logs go
 * @param workload what the workers do; for {@link Workload#SLOTS}, {@code locks} is the number of jobs, each run by
 *     one thread of every worker
 */
record TortureOptions(TestDatabase database, int processes, Duration duration, Set<Fault> faults, int threads,
        int locks, Duration ttl, Path runDirectory, Workload workload) {

    /** The slots workload's period: its slots are the multiples of two seconds since the epoch. */
    static final Duration SLOT_PERIOD = Duration.ofSeconds(2);

    /** The largest offset of a slots worker's slot clock, either way. */
    static final Duration MAX_SLOT_OFFSET = Duration.ofSeconds(3);

    /** The longest wait between two acquire attempts of {@code LockManager.acquire}: its maximum backoff. */
    static final Duration RETRY_INTERVAL = Duration.ofSeconds(1);

    /** Headroom for statement latency and thread scheduling on a busy machine, added to takeover bounds. */
    static final Duration SCHEDULING_TOLERANCE = Duration.ofMillis(500);

    TortureOptions {
        require(processes >= 2 && processes <= 16, "--processes must be between 2 and 16, got " + processes);
        require(duration.getSeconds() >= 10 && duration.getSeconds() <= 86_400,
                "--seconds must be between 10 and 86400, got " + duration.getSeconds());
        require(threads >= 1 && threads <= 16, "--threads must be between 1 and 16, got " + threads);
        require(locks >= 1 && locks <= 16, "--locks must be between 1 and 16, got " + locks);
        require(ttl.toMillis() >= 500 && ttl.toMillis() <= 60_000, "--ttl-ms must be between 500 and 60000, got "
                + ttl.toMillis());
        require(workload != Workload.SLOTS || !faults.contains(Fault.SKEW), "--faults skew does not apply to "
                + "--workload slots: every slots worker's slot clock is offset by up to "
                + MAX_SLOT_OFFSET.toSeconds() + " s already, and lease expiry follows the database clock");
    }

    /** A run of the locks workload. */
    TortureOptions(TestDatabase database, int processes, Duration duration, Set<Fault> faults, int threads, int locks,
            Duration ttl, Path runDirectory) {
        this(database, processes, duration, faults, threads, locks, ttl, runDirectory, Workload.LOCKS);
    }

    static TortureOptions parse(Args args, Path defaultRunRoot) {
        TestDatabase database = TestDatabase.byId(args.get("db"));
        Path runDirectory = args.has("run-dir") ? Path.of(args.get("run-dir"))
                : defaultRunRoot.resolve(database.id() + "-" + System.currentTimeMillis());
        Workload workload = Workload.parse(args.get("workload", "locks"));
        String defaultFaults = workload == Workload.SLOTS ? "kill,pause" : "kill,pause,disconnect,skew";
        return new TortureOptions(database, args.getInt("processes", 4),
                Duration.ofSeconds(args.getLong("seconds", 60)),
                Fault.parseList(args.get("faults", defaultFaults)), args.getInt("threads", 3),
                args.getInt("locks", 3), Duration.ofMillis(args.getLong("ttl-ms", 2000)), runDirectory, workload);
    }

    /** How long a paused holder stays stopped: past its TTL, so that another worker takes its lock meanwhile. */
    Duration pauseLength() {
        return ttl.plusMillis(1500);
    }

    /** The bound a takeover after a kill must meet: TTL plus one retry interval, plus scheduling headroom. */
    Duration takeoverBound() {
        return ttl.plus(RETRY_INTERVAL).plus(SCHEDULING_TOLERANCE);
    }

    String faultList() {
        return faults.isEmpty() ? "none" : faults.stream().map(Fault::label).collect(Collectors.joining(","));
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
