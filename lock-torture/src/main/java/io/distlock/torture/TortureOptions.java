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
 */
record TortureOptions(TestDatabase database, int processes, Duration duration, Set<Fault> faults, int threads,
        int locks, Duration ttl, Path runDirectory) {

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
    }

    static TortureOptions parse(Args args, Path defaultRunRoot) {
        TestDatabase database = TestDatabase.byId(args.get("db"));
        Path runDirectory = args.has("run-dir") ? Path.of(args.get("run-dir"))
                : defaultRunRoot.resolve(database.id() + "-" + System.currentTimeMillis());
        return new TortureOptions(database, args.getInt("processes", 4),
                Duration.ofSeconds(args.getLong("seconds", 60)),
                Fault.parseList(args.get("faults", "kill,pause,disconnect,skew")), args.getInt("threads", 3),
                args.getInt("locks", 3), Duration.ofMillis(args.getLong("ttl-ms", 2000)), runDirectory);
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
