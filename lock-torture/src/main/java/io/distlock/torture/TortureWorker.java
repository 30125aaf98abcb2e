package io.distlock.torture;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.SQLExceptionOverride;
import io.distlock.core.BatchRenewal;
import io.distlock.core.Lease;
import io.distlock.core.LeaseKey;
import io.distlock.core.LockLostException;
import io.distlock.core.LockManager;
import io.distlock.core.LockOutcome;
import io.distlock.core.LockRepository;
import io.distlock.core.LockRequest;
import io.distlock.core.RandomOwnerGenerator;
import io.distlock.core.TimeSource;
import io.distlock.jdbc.FencingGuard;
import io.distlock.jdbc.FencingResult;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.redis.RedisLockRepository;
import io.distlock.testsupport.TestDatabase;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One worker JVM of the locks workload or, with {@code --workload slots}, of the slots workload ({@link SlotWork}).
 * In the locks workload its threads take the torture locks through {@link LockManager} with the watchdog and, while
 * holding one, run a critical section on two protected resources:
 * <ol>
 * <li>the <b>unfenced counter</b>: read it, wait (mostly briefly, sometimes longer than the TTL so that only the
 * watchdog keeps the lease), write the value read plus one without checking the lease, recording the section (and
 * whether the lease was already known lost) in the same transaction;</li>
 * <li>the <b>fenced ledger</b>: in one transaction, {@link FencingGuard#admit} with the lease's token, then either
 * advance the ledger head and record the accepted write, or record the refused one.</li>
 * </ol>
 * The locks live in the same database's lock table ({@code JdbcLockRepository}, each statement bounded by
 * {@link TortureOptions#STATEMENT_TIMEOUT}) or, with {@code --store redis}, in Redis ({@code RedisLockRepository},
 * each command bounded by the same timeout), the protected resources then staying in the database. The pool has a
 * connection per thread and one more, for the watchdog's renewals: each thread uses one connection at a time.
 * <p>
 * It prints {@code EVENT} lines that the checker reads: {@code READY}, {@code LOST} (the lease-lost listener),
 * {@code REPORTED_LOST} (a {@code runLocked} call that answered {@code LOST} or threw a {@link LockLostException}),
 * {@code RELEASE} (a release slower than 300 ms, from the end of the work to the return of {@code runLocked}),
 * {@code SLOWACQUIRE} ({@link TimedRepository}), {@code HOGGING} and {@code HOG} (a section holding a pooled
 * connection under the pool fault), {@code DBERROR} (a documented {@link DataAccessException} or
 * {@link SQLException}), {@code UNEXPECTED} (anything else) and {@code DONE}. It starts taking locks when the
 * controller writes {@code go} to its standard input (so that the start-up of the other JVMs does not starve the
 * first leases), holds a pooled connection in each section that starts within the next {@code n} milliseconds after
 * {@code hog n}, stops when it writes {@code stop}, and exits at once when that input closes (the controller is gone)
 * or its own deadline passes.
 */
public final class TortureWorker {

    private static final Duration MAX_WAIT = Duration.ofSeconds(4);

    private static final Duration MAX_HOLD = Duration.ofMinutes(1);

    private static final Duration STOP_GRACE = Duration.ofSeconds(15);

    private static final Duration STARTUP_RETRIES = Duration.ofSeconds(30);

    /** How long a jumping slot clock stays ahead, and then back, before it jumps again. */
    private static final Duration JUMP_EVERY = Duration.ofSeconds(6);

    private static final Set<String> BROKEN_CONNECTION_STATES = Set.of("90067", "90098", "90121", "57P01");

    /** Releases at least this slow are reported one by one. */
    private static final long REPORTED_RELEASE_MILLIS = 300;

    private final LockDialect dialect;

    private final HikariDataSource dataSource;

    private final LockManager locks;

    private final TimedRepository repository;

    private final @Nullable LettuceConnectionFactory redis;

    private final @Nullable FencingGuard fence;

    private final Workload workload;

    private final Duration ttl;

    private final long pid = ProcessHandle.current().pid();

    private volatile boolean stopping;

    private final AtomicLong sections = new AtomicLong();

    private final AtomicLong accepted = new AtomicLong();

    private final AtomicLong refused = new AtomicLong();

    private final AtomicLong databaseErrors = new AtomicLong();

    private final AtomicLong lostLeases = new AtomicLong();

    private final AtomicLong unexpected = new AtomicLong();

    private final AtomicLong reportedLost = new AtomicLong();

    private final AtomicLong maxReleaseMillis = new AtomicLong();

    private final AtomicLong hogs = new AtomicLong();

    private final Duration poolHold;

    /** Sections that start before this {@link System#nanoTime()} hold a pooled connection first. */
    private volatile long hogUntilNanos = System.nanoTime();

    private TortureWorker(TestDatabase database, Workload workload, String name, int poolSize, Duration ttl,
            Duration skew, LockStore store, Args options) {
        this.dialect = database.dialect();
        this.ttl = ttl;
        this.poolHold = ttl.plusMillis(1000);
        this.workload = workload;
        this.dataSource = pool(database, workload, name, pid, poolSize);
        Duration statementTimeout = Duration.ofMillis(options.getLong("statement-timeout-ms",
                TortureOptions.STATEMENT_TIMEOUT.toMillis()));
        LockRepository lockStore;
        if (store == LockStore.REDIS) {
            this.redis = RedisTarget.of(options.get("redis-url")).connectionFactory(name, statementTimeout);
            lockStore = RedisLockRepository.builder(redis).keyPrefix(options.get("key-prefix")).build();
        }
        else {
            this.redis = null;
            JdbcLockRepository.Builder jdbc = JdbcLockRepository.builder(dataSource).tableName(workload.lockTable())
                    .dialect(dialect).timeSource(TimeSource.DATABASE).clock(Clock.offset(Clock.systemUTC(), skew));
            lockStore = (workload == Workload.LOCKS ? jdbc.statementTimeout(statementTimeout) : jdbc).build();
        }
        this.repository = new TimedRepository(lockStore, TortureWorker::event);
        LockManager.Builder builder = LockManager.builder(repository).ownerGenerator(new RandomOwnerGenerator(name))
                .lostListener((lease, reason) -> {
                    lostLeases.incrementAndGet();
                    event("LOST", lease.resource() + " token=" + lease.token() + ": " + reason);
                })
                .observer(new io.distlock.core.LockObserver() {
                    @Override
                    public void slotsMissed(String job, io.distlock.core.MissedSlots missed) {
                        // Told before the slot's work starts, so that a kill during the work cannot lose it.
                        event("MISSED", job + " first=" + missed.first().toEpochMilli() + " last="
                                + missed.last().toEpochMilli() + " count=" + missed.count());
                    }
                });
        this.locks = buildDespiteOutages(builder);
        this.fence = workload == Workload.LOCKS
                ? FencingGuard.builder(dataSource).tableName(TortureSchema.FENCE).dialect(dialect).build() : null;
    }

    /**
     * Runs a worker.
     *
     * @param args {@code --db h2|postgresql|mariadb --slot n --threads n --locks n --ttl-ms n --skew-ms n
     *     --max-seconds n [--statement-timeout-ms n]}, with {@code --store redis --redis-url url --key-prefix p} for
     *     locks in Redis, and for the slots workload {@code --workload slots --locks jobs --period-ms n
     *     --slot-offset-ms n [--slot-jump-ms n]} (a slot clock that jumps that far ahead and back again); the JDBC URL, user and password come from {@code DISTLOCK_TORTURE_URL},
     *     {@code DISTLOCK_TORTURE_USER} and {@code DISTLOCK_TORTURE_PASSWORD}
     */
    public static void main(String[] args) {
        Thread.setDefaultUncaughtExceptionHandler((thread, ex) -> {
            System.out.println(line("UNEXPECTED", "uncaught in " + thread.getName() + ": " + ex));
            ex.printStackTrace(System.out);
        });
        Args options = Args.parse(args);
        TestDatabase database = TestDatabase.byId(options.get("db"));
        int slot = options.getInt("slot", 0);
        int threads = options.getInt("threads", 3);
        int lockCount = options.getInt("locks", 3);
        Duration ttl = Duration.ofMillis(options.getLong("ttl-ms", 2000));
        Duration skew = Duration.ofMillis(options.getLong("skew-ms", 0));
        Duration maxRun = Duration.ofSeconds(options.getLong("max-seconds", 600));
        Workload workload = Workload.parse(options.get("workload", "locks"));
        Duration period = Duration.ofMillis(options.getLong("period-ms", TortureOptions.SLOT_PERIOD.toMillis()));
        Duration slotOffset = Duration.ofMillis(options.getLong("slot-offset-ms", 0));
        Duration slotJump = Duration.ofMillis(options.getLong("slot-jump-ms", 0));
        String name = "w" + slot + "-" + ProcessHandle.current().pid();
        LockStore store = LockStore.valueOf(options.get("store", "jdbc").toUpperCase(java.util.Locale.ROOT));
        // The locks workload: one connection per thread, and one for the watchdog's renewals.
        int poolSize = workload == Workload.SLOTS ? lockCount + 3 : threads + 1;
        TortureWorker worker = new TortureWorker(database, workload, name, poolSize, ttl, skew, store, options);
        System.exit(workload == Workload.SLOTS ? worker.runSlots(name, lockCount, period, slotOffset, slotJump, maxRun)
                : worker.run(name, threads, lockCount, skew, maxRun));
    }

    /**
     * Builds the manager, which checks the lock table first. A replacement worker may start while a disconnect
     * fault cuts the sessions; the check then fails with a documented {@link DataAccessException}, and is retried.
     */
    private LockManager buildDespiteOutages(LockManager.Builder builder) {
        long deadline = System.nanoTime() + STARTUP_RETRIES.toNanos();
        while (true) {
            try {
                return builder.build();
            }
            catch (DataAccessException ex) {
                if (System.nanoTime() - deadline > 0) {
                    throw ex;
                }
                databaseErrors.incrementAndGet();
                event("DBERROR", "start-up: " + ex.getClass().getSimpleName() + ": " + firstLine(ex));
                sleepQuietly(200);
            }
        }
    }

    private int run(String name, int threadCount, int lockCount, Duration skew, Duration maxRun) {
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch stop = new CountDownLatch(1);
        watchStandardInput(go, stop);
        warmUp(name);
        event("READY", name + " skew_ms=" + skew.toMillis() + " application_clock=" + Clock.offset(Clock.systemUTC(),
                skew).instant() + " database_clock=" + databaseNow());
        if (!awaitGo(go, maxRun)) {
            return 4;
        }
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < threadCount && stop.getCount() > 0; i++) {
            String lock = TortureSchema.lockName(i % lockCount);
            Thread thread = new Thread(() -> takeLocks(lock), name + "-t" + i);
            threads.add(thread);
            thread.start();
        }
        awaitStop(stop, threads, maxRun);
        event("DONE", "sections=" + sections + " accepted=" + accepted + " refused=" + refused + " db_errors="
                + databaseErrors + " lost_leases=" + lostLeases + " reported_lost=" + reportedLost
                + " max_release_ms=" + maxReleaseMillis + " max_acquire_ms=" + repository.maxAcquireMillis()
                + " hogs=" + hogs + " unexpected=" + unexpected);
        return unexpected.get() == 0 ? 0 : 3;
    }

    /** The slots workload: one thread per job, firing by a slot clock offset from the system clock. */
    private int runSlots(String name, int jobs, Duration period, Duration slotOffset, Duration slotJump,
            Duration maxRun) {
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch stop = new CountDownLatch(1);
        watchStandardInput(go, stop);
        warmUp(name);
        Clock slotClock = slotJump.isZero() ? Clock.offset(Clock.systemUTC(), slotOffset)
                : new JumpingClock(slotOffset, slotJump, JUMP_EVERY, jump -> event("JUMP", name + " " + jump));
        event("READY", name + " slot_offset_ms=" + slotOffset.toMillis() + " slot_jump_ms=" + slotJump.toMillis()
                + " slot_clock=" + slotClock.instant() + " database_clock=" + databaseNow());
        if (!awaitGo(go, maxRun)) {
            return 4;
        }
        SlotWork work = new SlotWork(locks, dataSource, dialect, ttl, period, slotClock, name, pid, () -> stopping);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < jobs && stop.getCount() > 0; i++) {
            int job = i;
            Thread thread = new Thread(() -> fireSlots(work, job), name + "-job" + i);
            threads.add(thread);
            thread.start();
        }
        awaitStop(stop, threads, maxRun);
        event("DONE", work.counts() + " db_errors=" + databaseErrors + " lost_leases=" + lostLeases + " unexpected="
                + unexpected);
        return unexpected.get() == 0 ? 0 : 3;
    }

    /** One job's thread: fires for its slots until told to stop, through database errors. */
    private void fireSlots(SlotWork work, int job) {
        while (!stopping) {
            try {
                work.fire(job);
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
            }
            catch (DataAccessException | SQLException ex) {
                databaseErrors.incrementAndGet();
                event("DBERROR", TortureSchema.jobName(job) + ": " + ex.getClass().getSimpleName() + ": "
                        + firstLine(ex));
                sleepQuietly(50);
            }
            catch (RuntimeException | Error ex) {
                unexpected.incrementAndGet();
                System.out.println(line("UNEXPECTED", TortureSchema.jobName(job) + ": " + ex));
                ex.printStackTrace(System.out);
                sleepQuietly(50);
            }
        }
    }

    private static boolean awaitGo(CountDownLatch go, Duration maxRun) {
        try {
            if (!go.await(maxRun.toMillis(), TimeUnit.MILLISECONDS)) {
                event("ORPHANED", "no go from the controller");
                return false;
            }
            return true;
        }
        catch (InterruptedException ex) {
            return false;
        }
    }

    /** Waits for "stop", lets the threads finish within the grace period, and closes the manager and the pool. */
    private void awaitStop(CountDownLatch stop, List<Thread> threads, Duration maxRun) {
        try {
            stop.await(maxRun.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        stopping = true;
        long deadline = System.nanoTime() + STOP_GRACE.toNanos();
        for (Thread thread : threads) {
            try {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                if (thread.isAlive()) {
                    thread.interrupt();
                    thread.join(2000);
                }
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        locks.close();
        dataSource.close();
        if (redis != null) {
            redis.destroy();
        }
    }

    /**
     * Runs every lease operation a few times on a lock of this worker's own before it reports ready, so that the
     * first real renewal does not pay for class loading and compilation while other JVMs compete for the CPU.
     */
    private void warmUp(String name) {
        String resource = "torture-warm-up-" + name;
        try {
            for (int i = 0; i < 5; i++) {
                Optional<Lease> lease = locks.tryAcquire(resource, ttl);
                if (lease.isPresent()) {
                    lease.get().renew(ttl);
                    repository.capability(BatchRenewal.class).orElseThrow()
                            .renewAll(List.of(new LeaseKey(resource, lease.get().owner())), ttl);
                    lease.get().release();
                }
            }
        }
        catch (DataAccessException ex) {
            databaseErrors.incrementAndGet();
            event("DBERROR", "warm-up: " + ex.getClass().getSimpleName() + ": " + firstLine(ex));
        }
    }

    /**
     * One thread: take the lock, run a critical section, release; until told to stop. Records how long each release
     * took (from the end of the work to the return of {@code runLocked}, which releases) and every lease that
     * {@code runLocked} reports lost, by its answer or by the exception it throws.
     */
    private void takeLocks(String lock) {
        while (!stopping) {
            Lease[] held = new Lease[1];
            long[] workEnded = new long[1];
            try {
                LockOutcome<Void> outcome = locks.runLocked(request(lock), lease -> {
                    held[0] = lease;
                    try {
                        criticalSection(lease);
                    }
                    catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                    finally {
                        workEnded[0] = System.nanoTime();
                    }
                    return null;
                });
                released(held[0], workEnded[0]);
                if (outcome.status() == LockOutcome.Status.LOST) {
                    reportLost(held[0], "runLocked answered LOST");
                }
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
            }
            catch (DataAccessException | SQLException ex) {
                released(held[0], workEnded[0]);
                reportLostIfTold(held[0], ex);
                databaseErrors.incrementAndGet();
                event("DBERROR", lock + ": " + ex.getClass().getSimpleName() + ": " + firstLine(ex));
                sleepQuietly(50);
            }
            catch (LockLostException ex) {
                released(held[0], workEnded[0]);
                reportLostIfTold(held[0], ex);
                event("LOSTCHECK", ex.getMessage());
            }
            catch (RuntimeException | Error ex) {
                released(held[0], workEnded[0]);
                reportLostIfTold(held[0], ex);
                unexpected.incrementAndGet();
                System.out.println(line("UNEXPECTED", lock + ": " + ex));
                ex.printStackTrace(System.out);
                sleepQuietly(50);
            }
        }
    }

    /** After a {@code runLocked} call whose work ran: how long its release took. */
    private void released(@Nullable Lease lease, long workEndedNanos) {
        if (lease == null || workEndedNanos == 0) {
            return;
        }
        long millis = (System.nanoTime() - workEndedNanos) / 1_000_000;
        maxReleaseMillis.accumulateAndGet(millis, Math::max);
        if (millis >= REPORTED_RELEASE_MILLIS) {
            event("RELEASE", lease.resource() + " token=" + lease.token() + " ms=" + millis + " end="
                    + Instant.now());
        }
    }

    /** A lease that {@code runLocked} told lost by throwing: the exception is, or carries, a LockLostException. */
    private void reportLostIfTold(@Nullable Lease lease, Throwable thrown) {
        if (lease == null) {
            return;
        }
        boolean told = thrown instanceof LockLostException;
        for (Throwable suppressed : thrown.getSuppressed()) {
            told |= suppressed instanceof LockLostException;
        }
        if (told) {
            reportLost(lease, "runLocked threw " + thrown.getClass().getSimpleName());
        }
    }

    private void reportLost(Lease lease, String how) {
        reportedLost.incrementAndGet();
        event("REPORTED_LOST", lease.resource() + " token=" + lease.token() + ": " + how);
    }

    private LockRequest request(String lock) {
        return LockRequest.of(lock, ttl).withMaxWait(MAX_WAIT).withMaxHold(MAX_HOLD);
    }

    private void criticalSection(Lease lease) throws SQLException, InterruptedException {
        lease.checkHeld();
        String lock = lease.resource();
        long token = lease.token();
        Instant firstExpiry = lease.expiresAt();
        boolean holdsPool = hogging();
        // The unfenced counter: read, wait, write what was read plus one. No lock in the database guards it.
        long read;
        Instant startedAt;
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement("SELECT counter_value, " + dialect.currentTimeExpression()
                        + " FROM " + TortureSchema.COUNTER + " WHERE lock_name = ?")) {
            statement.setString(1, lock);
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                read = rs.getLong(1);
                startedAt = dialect.readInstant(rs, 2);
            }
        }
        work(waitMillis(), holdsPool, firstExpiry, lock, token, lease);
        // Deliberately no checkHeld() here: the counter stands for a writer that does not look. Whether the lease was
        // already known lost is recorded, so that the checker can tell a starved holder from a broken lock.
        int knownLost = lease.isLost() ? 1 : 0;
        inTransaction(connection -> {
            update(connection, "UPDATE " + TortureSchema.COUNTER + " SET counter_value = ? WHERE lock_name = ?",
                    read + 1, lock);
            update(connection, "INSERT INTO " + TortureSchema.SECTIONS + " (lock_name, token, owner, worker_pid, "
                    + "read_value, written_value, lease_lost, started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
                    + dialect.currentTimeExpression() + ")", lock, token, lease.owner(), pid, read, read + 1, knownLost,
                    dialect.instantParameter(startedAt));
            return null;
        });
        sections.incrementAndGet();
        // The fenced ledger: the check and the write commit together.
        FencingGuard ledgerFence = java.util.Objects.requireNonNull(fence, "fence");
        FencingResult result = inTransaction(connection -> {
            FencingResult decision = ledgerFence.admit(connection, lock, token);
            Long version = null;
            if (decision.accepted()) {
                update(connection, "UPDATE " + TortureSchema.LEDGER_HEAD
                        + " SET token = ?, version = version + 1 WHERE lock_name = ?", token, lock);
                try (PreparedStatement statement = connection.prepareStatement(
                        "SELECT version FROM " + TortureSchema.LEDGER_HEAD + " WHERE lock_name = ?")) {
                    statement.setString(1, lock);
                    try (ResultSet rs = statement.executeQuery()) {
                        rs.next();
                        version = rs.getLong(1);
                    }
                }
            }
            update(connection, "INSERT INTO " + TortureSchema.LEDGER + " (lock_name, token, owner, worker_pid, "
                    + "accepted, version, written_at) VALUES (?, ?, ?, ?, ?, ?, " + dialect.currentTimeExpression() + ")", lock, token,
                    lease.owner(), pid, decision.accepted() ? 1 : 0, version);
            return decision;
        });
        (result.accepted() ? accepted : refused).incrementAndGet();
    }

    /** Whether the pool fault asks the sections that start or run now to hold a pooled connection. */
    private boolean hogging() {
        return System.nanoTime() - hogUntilNanos < 0;
    }

    /**
     * The section's work: waits. Under the pool fault (asked for when the section started or while it waits), the
     * section goes on until its lease has been renewed once, so that the watchdog holds the connection it keeps for
     * renewals, and then holds every other connection of the pool ({@link #holdThePool}).
     */
    private void work(long millis, boolean holdsPool, Instant firstExpiry, String lock, long token, Lease lease)
            throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        boolean wantsPool = holdsPool;
        boolean done = false;
        while (true) {
            wantsPool |= !done && hogging();
            if (wantsPool && !done && lease.expiresAt().isAfter(firstExpiry)) {
                done = true;
                holdThePool(lock, token, lease);
            }
            if (wantsPool && !done && lease.isLost()) {
                done = true;
            }
            long left = end - System.nanoTime();
            if (left <= 0 && (!wantsPool || done)) {
                return;
            }
            Thread.sleep(Math.max(1, Math.min(20, TimeUnit.NANOSECONDS.toMillis(Math.max(left, 0)))));
        }
    }

    /**
     * The pool fault: takes every connection left in the pool and holds each in an open transaction (it has read the
     * counter) for longer than the TTL, as guarded work that keeps transactions open would, while the watchdog keeps
     * the leases alive on the connection it keeps for renewals. The worker's other threads meanwhile find the pool
     * empty: their statements wait for a connection and fail. Samples how many of the pool's connections are in use.
     */
    private void holdThePool(String lock, long token, Lease lease) throws InterruptedException {
        int poolSize = dataSource.getMaximumPoolSize();
        List<Connection> held = new ArrayList<>();
        try {
            while (dataSource.getHikariPoolMXBean().getActiveConnections() < poolSize) {
                Connection connection;
                try {
                    connection = dataSource.getConnection();
                }
                catch (SQLException ex) {
                    break; // another thread took the last one meanwhile: the pool is held
                }
                held.add(connection);
                connection.setAutoCommit(false);
                try (PreparedStatement statement = connection.prepareStatement("SELECT counter_value FROM "
                        + TortureSchema.COUNTER + " WHERE lock_name = ?")) {
                    statement.setString(1, lock);
                    statement.executeQuery().close();
                }
            }
            if (held.isEmpty()) {
                return;
            }
            int maxActive = dataSource.getHikariPoolMXBean().getActiveConnections();
            event("HOGGING", lock + " token=" + token + " connections=" + held.size() + " active=" + maxActive
                    + " pool=" + poolSize);
            long start = System.nanoTime();
            long end = start + poolHold.toNanos();
            while (System.nanoTime() - end < 0) {
                Thread.sleep(Math.max(1, Math.min(100, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()))));
                maxActive = Math.max(maxActive, dataSource.getHikariPoolMXBean().getActiveConnections());
            }
            for (Connection connection : held) {
                connection.commit();
            }
            hogs.incrementAndGet();
            event("HOG", lock + " token=" + token + " held_ms=" + (System.nanoTime() - start) / 1_000_000
                    + " connections=" + held.size() + " max_active=" + maxActive + " pool=" + poolSize
                    + " lease_lost=" + lease.isLost());
        }
        catch (SQLException ex) {
            databaseErrors.incrementAndGet();
            event("DBERROR", lock + ": holding the pool: " + ex.getClass().getSimpleName() + ": " + firstLine(ex));
        }
        finally {
            for (Connection connection : held) {
                try {
                    connection.close();
                }
                catch (SQLException ex) {
                    // Broken meanwhile (a disconnect): the pool evicts it.
                }
            }
        }
    }

    /** Mostly short waits; one in five longer than half the TTL, some beyond it, so renewals carry the lease. */
    private long waitMillis() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return random.nextInt(5) == 0 ? random.nextLong(ttl.toMillis() / 2, ttl.toMillis() * 5 / 4)
                : random.nextLong(5, 250);
    }

    private <T> @Nullable T inTransaction(SqlWork<T> work) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            }
            catch (SQLException | RuntimeException ex) {
                try {
                    connection.rollback();
                }
                catch (SQLException rollback) {
                    ex.addSuppressed(rollback);
                }
                throw ex;
            }
        }
    }

    private static void update(Connection connection, String sql, @Nullable Object... args) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                if (args[i] == null) {
                    statement.setNull(i + 1, Types.BIGINT);
                }
                else {
                    statement.setObject(i + 1, args[i]);
                }
            }
            statement.executeUpdate();
        }
    }

    private String databaseNow() {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement("SELECT " + dialect.currentTimeExpression());
                ResultSet rs = statement.executeQuery()) {
            rs.next();
            return dialect.readInstant(rs, 1).toString();
        }
        catch (SQLException ex) {
            return "unreadable (" + ex.getMessage() + ")";
        }
    }

    /**
     * "go" on standard input starts taking locks, "stop" stops gracefully; the end of the input means the controller
     * is gone, so the worker exits at once.
     */
    private void watchStandardInput(CountDownLatch go, CountDownLatch stop) {
        Thread watcher = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                for (String command = in.readLine(); command != null; command = in.readLine()) {
                    String[] words = command.strip().split("\\s+");
                    switch (words[0]) {
                        case "go" -> go.countDown();
                        case "stop" -> {
                            stop.countDown();
                            go.countDown();
                        }
                        case "hog" -> {
                            hogUntilNanos = System.nanoTime()
                                    + TimeUnit.MILLISECONDS.toNanos(Long.parseLong(words[1]));
                            event("HOGMODE", words[1] + " ms");
                        }
                        default -> System.out.println(line("UNEXPECTED", "unknown command '" + command + "'"));
                    }
                }
            }
            catch (IOException ex) {
                // Treated as the controller being gone.
            }
            System.out.println(line("ORPHANED", "standard input closed: exiting"));
            Runtime.getRuntime().halt(4);
        }, "stdin-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    private static HikariDataSource pool(TestDatabase database, Workload workload, String name, long pid, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(System.getenv("DISTLOCK_TORTURE_URL"));
        config.setUsername(System.getenv("DISTLOCK_TORTURE_USER"));
        config.setPassword(System.getenv().getOrDefault("DISTLOCK_TORTURE_PASSWORD", ""));
        config.setPoolName(name);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(1);
        config.setConnectionTimeout(1000);
        config.setInitializationFailTimeout(-1);
        config.setValidationTimeout(500);
        config.setExceptionOverride(new EvictBrokenConnections());
        tagSessions(database, workload, config, name, pid);
        return new HikariDataSource(config);
    }

    /**
     * Marks a worker's pooled sessions so that the controller can find and terminate them: on PostgreSQL they carry
     * the worker's name as {@code application_name}; on MariaDB each registers itself in the workload's sessions
     * table ({@code torture_sessions}, {@code torture_slot_sessions}).
     *
     * @param database the database
     * @param workload the workload, whose sessions table it is
     * @param config the worker's pool
     * @param workerName the worker's name, {@code w<slot>-<pid>}
     * @param pid the worker's process id
     */
    private static void tagSessions(TestDatabase database, Workload workload, HikariConfig config, String workerName,
            long pid) {
        switch (database) {
            case POSTGRESQL -> config.addDataSourceProperty("ApplicationName", workerName);
            case MARIADB -> config.setConnectionInitSql("INSERT INTO " + workload.sessionsTable()
                    + " (worker_pid, session_id) VALUES (" + pid + ", CONNECTION_ID())");
            case H2 -> {
                // The disconnect fault restarts the TCP server, which cuts every worker's sessions.
            }
        }
    }

    private static void event(String kind, String detail) {
        System.out.println(line(kind, detail));
    }

    private static String line(String kind, String detail) {
        return Instant.now() + " EVENT " + kind + " " + detail;
    }

    private static String firstLine(Throwable ex) {
        String message = String.valueOf(ex.getMessage());
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** Evicts connections cut by the disconnect fault at once, including H2's "connection broken" states. */
    private static final class EvictBrokenConnections implements SQLExceptionOverride {

        @java.lang.Override
        public SQLExceptionOverride.Override adjudicate(SQLException ex) {
            String state = ex.getSQLState();
            return state != null && BROKEN_CONNECTION_STATES.contains(state) ? SQLExceptionOverride.Override.MUST_EVICT
                    : SQLExceptionOverride.Override.CONTINUE_EVICT;
        }
    }

    @FunctionalInterface
    private interface SqlWork<T> {

        @Nullable T run(Connection connection) throws SQLException;
    }
}
