package io.distlock.torture;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.distlock.core.LockRecord;
import io.distlock.core.RenewResult;
import io.distlock.jdbc.FencingGuard;
import io.distlock.jdbc.FencingSchema;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.JdbcReplication;
import io.distlock.jdbc.LockSchema;
import io.distlock.jdbc.LockTableName;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.jdbc.dialect.LockDialects;
import io.distlock.testsupport.PrivatePostgres;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.support.EncodedResource;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.jdbc.datasource.init.ScriptUtils;

/**
 * The {@code failover} fault on PostgreSQL: a private primary and streaming standby, worker threads that take leases,
 * renew them and write to a fenced ledger on the same replicated database, through a multi-host URL with
 * {@code targetServerType=primary}; and, again and again, replication frozen at a random moment ({@code SIGSTOP} of the
 * primary's walsender) while acquisitions and renewals are in flight, the primary killed, what the standby kept read,
 * the standby promoted, and the old primary's data directory made the next standby by a new base backup.
 * {@code --replication sync} names the standby synchronous on the server, makes every other session commit without
 * waiting for it
 * ({@code synchronous_commit = local}), and runs the lock repository with {@link JdbcReplication#SYNCHRONOUS} and the
 * ledger's transactions with {@code synchronous_commit = on}; {@code async} is the server's default.
 *
 * <p>From what the workers were told it counts: acknowledged acquisitions and renewals the new primary lacks, owners
 * whose believed leases overlapped in time (one JVM, one {@link System#nanoTime()} clock), ledger writes accepted with
 * a token below (or equal to another owner's) one accepted before they began, tokens that went back or were handed to
 * two owners, and the longest time from a kill to the next acquisition. It prints one {@code FAILOVER} line and exits 0
 * when synchronous replication showed no hazard (or the run was asynchronous, whose hazard is what it measures), 1
 * when it did, 2 when the run could not be carried out.
 *
 * <p>Arguments: {@code --replication sync|async} {@code --seconds S} {@code --failovers N} (stop after N, default no
 * limit) {@code --threads N} {@code --locks N} {@code --ttl-ms MS} {@code --timeout-ms MS}.
 */
public final class PostgresFailoverTorture {

    private static final LockDialect DIALECT = LockDialects.byName("postgresql");

    private static final String LEDGER = "torture_failover_ledger";

    private static final String FENCE = "torture_failover_fence";

    private final boolean synchronous;

    private final Duration ttl;

    private final Duration timeout;

    private final int threads;

    private final int locks;

    private final long startNanos = System.nanoTime();

    private final ConcurrentLinkedQueue<LeaseBelief> leases = new ConcurrentLinkedQueue<>();

    private final ConcurrentLinkedQueue<LedgerWrite> writes = new ConcurrentLinkedQueue<>();

    private final AtomicLong lastAcquiredNanos = new AtomicLong();

    private volatile boolean stop;

    private PostgresFailoverTorture(boolean synchronous, Duration ttl, Duration timeout, int threads, int locks) {
        this.synchronous = synchronous;
        this.ttl = ttl;
        this.timeout = timeout;
        this.threads = threads;
        this.locks = locks;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>(Map.of("--replication", "sync", "--seconds", "60",
                "--failovers", String.valueOf(Integer.MAX_VALUE), "--threads", "6", "--locks", "6", "--ttl-ms",
                "5000", "--timeout-ms", "1000"));
        for (int i = 0; i < args.length; i += 2) {
            if (!options.containsKey(args[i]) || i + 1 >= args.length) {
                System.err.println("PostgresFailoverTorture: unknown option or missing value: " + args[i]
                        + "; options: " + options.keySet());
                System.exit(2);
            }
            options.put(args[i], args[i + 1]);
        }
        String mode = options.get("--replication");
        if (!mode.equals("sync") && !mode.equals("async")) {
            System.err.println("PostgresFailoverTorture: --replication must be sync or async, not '" + mode + "'");
            System.exit(2);
        }
        Path bin = PrivatePostgres.binaries();
        if (bin == null) {
            System.err.println("PostgresFailoverTorture: no PostgreSQL initdb found (DISTLOCK_TEST_POSTGRESQL_BIN, "
                    + "/usr/lib/postgresql/*/bin, PATH)");
            System.exit(2);
        }
        PostgresFailoverTorture torture = new PostgresFailoverTorture(mode.equals("sync"),
                Duration.ofMillis(Long.parseLong(options.get("--ttl-ms"))),
                Duration.ofMillis(Long.parseLong(options.get("--timeout-ms"))),
                Integer.parseInt(options.get("--threads")), Integer.parseInt(options.get("--locks")));
        int status;
        try {
            status = torture.run(bin, Duration.ofSeconds(Long.parseLong(options.get("--seconds"))),
                    Integer.parseInt(options.get("--failovers")));
        }
        catch (Exception ex) {
            System.err.println("PostgresFailoverTorture: the run could not be carried out");
            ex.printStackTrace();
            status = 2;
        }
        System.exit(status);
    }

    private int run(Path bin, Duration duration, int maxFailovers) throws Exception {
        PrivatePostgres[] servers = new PrivatePostgres[2];
        // However the JVM ends (torture.sh stops it with SIGTERM), the private servers go with it.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stop = true;
            for (PrivatePostgres server : servers) {
                if (server != null) {
                    server.close();
                }
            }
        }, "failover-servers-stop"));
        servers[0] = PrivatePostgres.start(bin);
        servers[1] = servers[0].startStandby();
        try (HikariDataSource admin = single(servers[0])) {
            if (synchronous) {
                nameSynchronousStandby(admin);
            }
            awaitStandby(admin);
            createTables(admin);
        }
        String url = "jdbc:postgresql://127.0.0.1:" + servers[0].port() + ",127.0.0.1:" + servers[1].port()
                + "/postgres?targetServerType=primary&hostRecheckSeconds=1&connectTimeout=2&socketTimeout=15";
        // A connection per use, not a pool: a pool's own back-off after the primary vanished (HikariCP waits up to
        // 5 s between attempts) would be measured instead of the store's recovery.
        SimpleDriverDataSource pool = new SimpleDriverDataSource(new org.postgresql.Driver(), url, "postgres", "");
        JdbcLockRepository repository = JdbcLockRepository.builder(pool).dialect(DIALECT)
                .statementTimeout(timeout)
                .replication(synchronous ? JdbcReplication.SYNCHRONOUS : JdbcReplication.ASYNC).build();
        FencingGuard guard = FencingGuard.builder(pool).dialect(DIALECT).tableName(FENCE).build();
        repository.verifySchema();
        System.out.println("failover run: " + repository.replicationStatus().summary());
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread worker = new Thread(() -> work(repository, guard, pool), "failover-worker-" + i);
            worker.start();
            workers.add(worker);
        }
        Counts counts = new Counts();
        long deadline = System.nanoTime() + duration.toNanos();
        int primary = 0;
        while (System.nanoTime() < deadline && counts.failovers < maxFailovers) {
            sleepMillis(1500 + ThreadLocalRandom.current().nextLong(1500));
            failOver(servers[primary], servers[1 - primary], counts);
            primary = 1 - primary;
        }
        stop = true;
        for (Thread worker : workers) {
            worker.join(TimeUnit.SECONDS.toMillis(30));
        }
        judge(counts);
        String line = "FAILOVER store=postgresql mode=" + (synchronous ? "sync" : "async") + " failovers="
                + counts.failovers + " acknowledged_lost=" + counts.acknowledgedLost + " overlapping_owners="
                + counts.overlaps + " stale_writes_accepted=" + counts.staleWrites + " token_regressions="
                + counts.regressions + " token_repeats=" + counts.repeats + " recover_ms_max="
                + counts.recoverMillisMax;
        System.out.println(line);
        System.out.printf("failover run: %d leases, %d fenced writes, %d threads, %d locks, TTL %s, "
                + "statement timeout %s%n", leases.size(), writes.size(), threads, locks, ttl, timeout);
        if (counts.failovers == 0) {
            return 2;
        }
        boolean hazard = counts.overlaps + counts.staleWrites + counts.regressions + counts.repeats
                + counts.acknowledgedLost > 0;
        return synchronous && hazard ? 1 : 0;
    }

    /**
     * Freezes replication, lets the workers go on for a random moment (acquisitions and renewals in flight), kills
     * the primary, checks what the standby kept, promotes it, and makes the old primary its standby.
     */
    private void failOver(PrivatePostgres primary, PrivatePostgres standby, Counts counts) throws Exception {
        try (HikariDataSource admin = single(primary)) {
            String pid = queryText(admin, "SELECT pid FROM pg_stat_replication LIMIT 1");
            if (pid == null) {
                throw new IllegalStateException("no walsender on the primary " + primary.url());
            }
            PrivatePostgres.signal("STOP", Long.parseLong(pid));
        }
        sleepMillis(100 + ThreadLocalRandom.current().nextLong(1100));
        long killedAt = System.nanoTime();
        primary.kill();
        // What the standby kept is read before it is promoted: once it is a primary, the workers reach it, and a
        // release or renewal it then commits (locally, while it has no standby) would read as a lost acknowledgement.
        try (HikariDataSource admin = single(standby)) {
            awaitReplayOfAllReceived(admin);
            counts.acknowledgedLost += lostAcknowledgements(admin, killedAt);
        }
        standby.promote();
        long promotedAt = System.nanoTime();
        counts.failovers++;
        try (HikariDataSource admin = single(standby)) {
            if (synchronous) {
                // What a failover manager does (Patroni's synchronous_mode): the new primary names its standby.
                nameSynchronousStandby(admin);
            }
            primary.rebuildAsStandbyOf(standby);
            awaitStandby(admin);
        }
        long recoverBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (lastAcquiredNanos.get() < killedAt && System.nanoTime() < recoverBy) {
            sleepMillis(10);
        }
        counts.recoverMillisMax = Math.max(counts.recoverMillisMax,
                TimeUnit.NANOSECONDS.toMillis(lastAcquiredNanos.get() - killedAt));
        System.out.printf("failover %d at %.1f s: promoted in %d ms, first acquisition after %d ms, %d lost so far%n",
                counts.failovers, (killedAt - startNanos) / 1e9, TimeUnit.NANOSECONDS.toMillis(promotedAt - killedAt),
                TimeUnit.NANOSECONDS.toMillis(lastAcquiredNanos.get() - killedAt), counts.acknowledgedLost);
    }

    /**
     * Waits until the standby has replayed all the WAL it received (and flushed) from the killed primary: what it then
     * shows is what its promotion starts from.
     */
    private static void awaitReplayOfAllReceived(DataSource standby) throws SQLException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!"replayed".equals(queryText(standby, "SELECT CASE WHEN pg_last_wal_replay_lsn() >= "
                + "pg_last_wal_receive_lsn() THEN 'replayed' END"))) {
            if (System.nanoTime() > until) {
                throw new IllegalStateException("the standby did not replay the WAL it received within 30 s");
            }
            sleepMillis(5);
        }
    }

    /**
     * Acquisitions acknowledged before the kill whose token the standby's row is below, and live leases whose
     * acknowledged renewal it lacks.
     */
    private int lostAcknowledgements(DataSource standby, long killedAt) throws SQLException {
        Map<String, LockRecord> rows = new HashMap<>();
        try (Connection connection = standby.getConnection(); Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT " + LockDialect.COLUMNS + " FROM "
                        + LockTableName.DEFAULT)) {
            while (rs.next()) {
                rows.put(rs.getString(1), new LockRecord(rs.getString(1), rs.getString(2), rs.getLong(3),
                        DIALECT.readInstant(rs, 4), DIALECT.readInstant(rs, 5)));
            }
        }
        int lost = 0;
        for (LeaseBelief lease : leases) {
            if (lease.checked || lease.ackNanos >= killedAt) {
                continue;
            }
            lease.checked = true;
            LockRecord row = rows.get(lease.lock);
            if (row == null || row.token() < lease.token) {
                lost++;
            }
            else if (row.token() == lease.token && lease.endNanos() > killedAt
                    && row.expiresAt().isBefore(lease.acknowledgedExpiry)) {
                lost++; // an acknowledged renewal of a lease still believed
            }
        }
        return lost;
    }

    private void work(JdbcLockRepository repository, FencingGuard guard, DataSource pool) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!stop) {
            String lock = "failover:" + random.nextInt(locks);
            String owner = "owner-" + UUID.randomUUID();
            long sentAt = System.nanoTime();
            Optional<LockRecord> acquired;
            try {
                acquired = repository.acquire(lock, owner, ttl);
            }
            catch (RuntimeException ex) {
                sleepMillis(50);
                continue;
            }
            if (acquired.isEmpty()) {
                sleepMillis(20);
                continue;
            }
            long ackAt = System.nanoTime();
            lastAcquiredNanos.accumulateAndGet(ackAt, Math::max);
            LeaseBelief lease = new LeaseBelief(lock, owner, acquired.get().token(), ackAt, sentAt + ttl.toNanos(),
                    acquired.get().expiresAt());
            leases.add(lease);
            hold(repository, guard, pool, lease);
        }
    }

    /**
     * Writes to the ledger while the lease is believed, for up to nine tenths of its TTL, renewing it once in three
     * leases, then releases it.
     */
    private void hold(JdbcLockRepository repository, FencingGuard guard, DataSource pool, LeaseBelief lease) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        // Up to nine tenths of the TTL, as guarded work that outlasts a failover does.
        long holdMillis = 50 + random.nextLong(ttl.toMillis() * 9 / 10);
        long holdUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(holdMillis);
        boolean renewed = false;
        while (System.nanoTime() < holdUntil && System.nanoTime() < lease.deadlineNanos && !stop) {
            write(guard, pool, lease);
            if (!renewed && random.nextInt(3) == 0) {
                renewed = true;
                long sentAt = System.nanoTime();
                try {
                    RenewResult result = repository.renew(lease.lock, lease.owner, ttl);
                    if (result.record() != null) {
                        lease.deadlineNanos = sentAt + ttl.toNanos();
                        lease.acknowledgedExpiry = result.record().expiresAt();
                    }
                    else {
                        lease.endedNanos = System.nanoTime();
                        return;
                    }
                }
                catch (RuntimeException ex) {
                    // not renewed: the lease keeps its deadline
                }
            }
            sleepMillis(20);
        }
        lease.endedNanos = System.nanoTime();
        try {
            repository.release(lease.lock, lease.owner);
        }
        catch (RuntimeException ex) {
            // the lease runs out at its TTL
        }
    }

    /** One fenced write: admitted with the lease's token, then a ledger row, in one transaction. */
    private void write(FencingGuard guard, DataSource pool, LeaseBelief lease) {
        long startAt = System.nanoTime();
        if (startAt >= lease.deadlineNanos) {
            return;
        }
        try (Connection connection = pool.getConnection()) {
            connection.setAutoCommit(false);
            try {
                if (synchronous) {
                    try (Statement statement = connection.createStatement()) {
                        statement.execute("SET LOCAL synchronous_commit = on");
                    }
                }
                if (!guard.admit(connection, lease.lock, lease.token).accepted()) {
                    connection.rollback();
                    return;
                }
                try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + LEDGER
                        + " (lock_name, token, owner) VALUES (?, ?, ?)")) {
                    insert.setString(1, lease.lock);
                    insert.setLong(2, lease.token);
                    insert.setString(3, lease.owner);
                    insert.executeUpdate();
                }
                connection.commit();
                writes.add(new LedgerWrite(lease.lock, lease.token, lease.owner, startAt, System.nanoTime()));
            }
            catch (SQLException | RuntimeException ex) {
                try {
                    connection.rollback();
                }
                catch (SQLException rollback) {
                    // a broken connection: the pool discards it
                }
            }
            finally {
                try {
                    connection.setAutoCommit(true);
                }
                catch (SQLException ex) {
                    // a broken connection
                }
            }
        }
        catch (SQLException | RuntimeException ex) {
            // no connection: no write
        }
    }

    /** Overlapping owners, token regressions and repeats, and stale writes accepted, from what workers were told. */
    private void judge(Counts counts) {
        Map<String, List<LeaseBelief>> byLock = new HashMap<>();
        for (LeaseBelief lease : leases) {
            byLock.computeIfAbsent(lease.lock, l -> new ArrayList<>()).add(lease);
        }
        for (List<LeaseBelief> held : byLock.values()) {
            held.sort((a, b) -> Long.compare(a.ackNanos, b.ackNanos));
            LeaseBelief longest = null;
            LeaseBelief highest = null;
            for (LeaseBelief lease : held) {
                if (longest != null && lease.ackNanos < longest.endNanos() && !lease.owner.equals(longest.owner)) {
                    counts.overlaps++;
                }
                if (longest == null || lease.endNanos() > longest.endNanos()) {
                    longest = lease;
                }
                if (highest != null && lease.token < highest.token) {
                    counts.regressions++;
                }
                else if (highest != null && lease.token == highest.token && !lease.owner.equals(highest.owner)) {
                    counts.repeats++;
                }
                if (highest == null || lease.token > highest.token) {
                    highest = lease;
                }
            }
        }
        Map<String, List<LedgerWrite>> writesByLock = new HashMap<>();
        for (LedgerWrite write : writes) {
            writesByLock.computeIfAbsent(write.lock(), l -> new ArrayList<>()).add(write);
        }
        for (List<LedgerWrite> ledger : writesByLock.values()) {
            List<LedgerWrite> byAck = new ArrayList<>(ledger);
            byAck.sort((a, b) -> Long.compare(a.ackNanos(), b.ackNanos()));
            List<LedgerWrite> byStart = new ArrayList<>(ledger);
            byStart.sort((a, b) -> Long.compare(a.startNanos(), b.startNanos()));
            int acked = 0;
            LedgerWrite highest = null;
            for (LedgerWrite write : byStart) {
                while (acked < byAck.size() && byAck.get(acked).ackNanos() < write.startNanos()) {
                    LedgerWrite done = byAck.get(acked++);
                    if (highest == null || done.token() > highest.token()) {
                        highest = done;
                    }
                }
                if (highest != null && (write.token() < highest.token()
                        || write.token() == highest.token() && !write.owner().equals(highest.owner()))) {
                    counts.staleWrites++;
                }
            }
        }
    }

    /** Names every standby synchronous, and lets every session but the lock repository's commit without it. */
    private static void nameSynchronousStandby(DataSource primary) throws SQLException {
        execute(primary, "ALTER SYSTEM SET synchronous_standby_names = '*'",
                "ALTER SYSTEM SET synchronous_commit = 'local'", "SELECT pg_reload_conf()");
    }

    private void awaitStandby(DataSource primary) throws SQLException {
        String wanted = synchronous ? "sync" : "async";
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!wanted.equals(queryText(primary, "SELECT sync_state FROM pg_stat_replication "
                + "WHERE state = 'streaming' LIMIT 1"))) {
            if (System.nanoTime() > until) {
                throw new IllegalStateException("no " + wanted + " standby streaming within 60 s; pg_stat_replication: "
                        + queryText(primary, "SELECT string_agg(application_name || ' ' || state || ' ' || sync_state,"
                                + " ', ') FROM pg_stat_replication"));
            }
            sleepMillis(50);
        }
    }

    private static void createTables(DataSource pool) throws SQLException {
        try (Connection connection = pool.getConnection()) {
            String script = LockSchema.script(DIALECT, LockTableName.DEFAULT) + ";\n"
                    + FencingSchema.script(DIALECT, FENCE) + ";\nCREATE TABLE " + LEDGER
                    + " (id bigserial PRIMARY KEY, lock_name text NOT NULL, token bigint NOT NULL,"
                    + " owner text NOT NULL)";
            ScriptUtils.executeSqlScript(connection, new EncodedResource(
                    new ByteArrayResource(script.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8));
        }
    }

    private static HikariDataSource single(PrivatePostgres server) {
        return pool(server.url(), 1);
    }

    private static HikariDataSource pool(String url, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername("postgres");
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(3_000);
        config.setInitializationFailTimeout(-1);
        return new HikariDataSource(config);
    }

    private static void execute(DataSource pool, String... sql) throws SQLException {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            for (String each : sql) {
                statement.execute(each);
            }
        }
    }

    private static @Nullable String queryText(DataSource pool, String sql) throws SQLException {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis); // pacing of the workload and of the faults, not synchronisation
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** One lease as its worker believed it: from the acquisition's answer until released, lost or run out. */
    private static final class LeaseBelief {

        final String lock;

        final String owner;

        final long token;

        final long ackNanos;

        volatile long deadlineNanos;

        volatile long endedNanos = Long.MAX_VALUE;

        volatile java.time.Instant acknowledgedExpiry;

        volatile boolean checked;

        LeaseBelief(String lock, String owner, long token, long ackNanos, long deadlineNanos,
                java.time.Instant acknowledgedExpiry) {
            this.lock = lock;
            this.owner = owner;
            this.token = token;
            this.ackNanos = ackNanos;
            this.deadlineNanos = deadlineNanos;
            this.acknowledgedExpiry = acknowledgedExpiry;
        }

        long endNanos() {
            return Math.min(deadlineNanos, endedNanos);
        }
    }

    /** A fenced write the ledger acknowledged. */
    private record LedgerWrite(String lock, long token, String owner, long startNanos, long ackNanos) {
    }

    /** What the run counts. */
    private static final class Counts {

        int failovers;

        int acknowledgedLost;

        int overlaps;

        int staleWrites;

        int regressions;

        int repeats;

        long recoverMillisMax;
    }
}
