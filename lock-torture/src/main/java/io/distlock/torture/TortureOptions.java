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
 * @param store where the locks live; on {@link LockStore#REDIS}, {@code database} is the H2 database that holds the
 *     protected resources
 */
record TortureOptions(TestDatabase database, int processes, Duration duration, Set<Fault> faults, int threads,
        int locks, Duration ttl, Path runDirectory, Workload workload, LockStore store) {

    /** The slots workload's period: its slots are the multiples of two seconds since the epoch. */
    static final Duration SLOT_PERIOD = Duration.ofSeconds(2);

    /** The largest offset of a slots worker's slot clock, either way. */
    static final Duration MAX_SLOT_OFFSET = Duration.ofSeconds(3);

    /**
     * How far the slot clock of one slots worker jumps ahead, again and again, before it is set back: more than a
     * period beyond the early tolerance, so that the slots it fires for while ahead are not its to claim.
     */
    static final Duration SLOT_JUMP = SLOT_PERIOD.plus(io.distlock.core.SlotRequest.EARLY_TOLERANCE).plusSeconds(2);

    /** The longest wait between two acquire attempts of {@code LockManager.acquire}: its maximum backoff. */
    static final Duration RETRY_INTERVAL = Duration.ofSeconds(1);

    /** Headroom for statement latency and thread scheduling on a busy machine, added to takeover bounds. */
    static final Duration SCHEDULING_TOLERANCE = Duration.ofMillis(500);

    /**
     * The workers' bound on every lock statement ({@code JdbcLockRepository.Builder.statementTimeout}) or Redis
     * command (Lettuce's command timeout): short, so that a statement stuck behind a row lock gives up well within a
     * TTL.
     */
    static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(1);

    /**
     * What a lock call may take beyond {@link #STATEMENT_TIMEOUT}: a release first waits for a renewal round in flight,
     * which a stalled row holds up for two statement timeouts (the batch's, then the stuck lease's own), and then
     * runs its own statement; one more second covers a wait for a pooled connection, a deadlock retry and scheduling
     * on a busy machine.
     */
    static final Duration CALL_MARGIN = STATEMENT_TIMEOUT.multipliedBy(2).plusSeconds(1);

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
        require(workload != Workload.SLOTS || (!faults.contains(Fault.POOL) && !faults.contains(Fault.ROWLOCK)),
                "--faults pool and rowlock apply to --workload locks only");
        require(store != LockStore.REDIS || workload == Workload.LOCKS, "--db redis runs --workload locks only");
        require(store != LockStore.REDIS || (!faults.contains(Fault.POOL) && !faults.contains(Fault.ROWLOCK)),
                "--faults pool and rowlock apply to the lock table of a database, not to --db redis");
        require(store != LockStore.REDIS || !faults.contains(Fault.SKEW), "--faults skew does not apply to --db "
                + "redis: the Redis store reads no application clock, every decision uses the server's TIME");
        require(store != LockStore.REDIS || database == TestDatabase.H2, "--db redis keeps its ledger in H2");
    }

    /** A run of the locks workload on a database's lock table. */
    TortureOptions(TestDatabase database, int processes, Duration duration, Set<Fault> faults, int threads, int locks,
            Duration ttl, Path runDirectory) {
        this(database, processes, duration, faults, threads, locks, ttl, runDirectory, Workload.LOCKS, LockStore.JDBC);
    }

    /** A run on a database's lock table. */
    TortureOptions(TestDatabase database, int processes, Duration duration, Set<Fault> faults, int threads, int locks,
            Duration ttl, Path runDirectory, Workload workload) {
        this(database, processes, duration, faults, threads, locks, ttl, runDirectory, workload, LockStore.JDBC);
    }

    static TortureOptions parse(Args args, Path defaultRunRoot) {
        String db = args.get("db");
        LockStore store = db.strip().equalsIgnoreCase("redis") ? LockStore.REDIS : LockStore.JDBC;
        TestDatabase database = store == LockStore.REDIS ? TestDatabase.H2 : TestDatabase.byId(db);
        Path runDirectory = args.has("run-dir") ? Path.of(args.get("run-dir"))
                : defaultRunRoot.resolve(db.strip() + "-" + System.currentTimeMillis());
        Workload workload = Workload.parse(args.get("workload", "locks"));
        String defaultFaults = workload == Workload.SLOTS ? Fault.SLOTS_DEFAULTS
                : store == LockStore.REDIS ? Fault.REDIS_DEFAULTS : Fault.JDBC_DEFAULTS;
        return new TortureOptions(database, args.getInt("processes", 4),
                Duration.ofSeconds(args.getLong("seconds", 60)),
                Fault.parseList(args.get("faults", defaultFaults)), args.getInt("threads", 3),
                args.getInt("locks", 3), Duration.ofMillis(args.getLong("ttl-ms", defaultTtl(workload).toMillis())),
                runDirectory, workload,
                store);
    }

    /**
     * The lease length when {@code --ttl-ms} is not given: 5 s for the locks workload, 2 s for the slots workload.
     * The watchdog renews every lease of a worker on one thread, at a third of the TTL; a renewal stuck behind a
     * stalled row holds that thread for up to two statement timeouts (the batch, then the stuck lease alone), so a
     * lease beside it keeps its TTL only when two thirds of the TTL leave room for that: with a 1 s statement timeout,
     * from about 4.5 s on.
     */
    static Duration defaultTtl(Workload workload) {
        return workload == Workload.SLOTS ? Duration.ofSeconds(2) : Duration.ofSeconds(5);
    }

    /** @return what the summary line calls the store: {@code redis}, or the database's id */
    String storeId() {
        return store == LockStore.REDIS ? "redis" : database.id();
    }

    /** How long the rowlock fault holds its rows: past the TTL, so that a lease on a stalled row runs out. */
    Duration rowLockLength() {
        return ttl.plusMillis(1000);
    }

    /** How long a guarded section under the pool fault holds its pooled connection: past the TTL. */
    Duration poolHold() {
        return ttl.plusMillis(1000);
    }

    /**
     * For how long after the pool fault starts the victim's guarded sections, those running and those that start,
     * go on to hold the pool: at least one renewal interval, so that a section's lease is renewed meanwhile.
     */
    Duration poolWindow() {
        return ttl.dividedBy(2);
    }

    /**
     * The bound every lock call must meet, a release included: the statement timeout plus {@link #CALL_MARGIN}.
     */
    Duration callBound() {
        return STATEMENT_TIMEOUT.plus(CALL_MARGIN);
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
