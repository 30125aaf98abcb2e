package io.distlock.torture;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.testsupport.TestDatabase;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Injects the dynamic faults in turn (kill, pause, disconnect, pool, rowlock) while the workers run, each aimed at a
 * worker that holds a lock at that moment, and records them in a {@link FaultLog}. Clock skew is applied when workers
 * start. Times of kills and takeovers are on the lock store's clock; every other time is on the clock of the
 * database that holds the protected resources, which the workers' sections are recorded by.
 */
final class FaultInjector {

    private static final Duration WARM_UP = Duration.ofSeconds(3);

    private static final Duration FIND_HOLDER = Duration.ofSeconds(3);

    private final TortureOptions options;

    private final TestDatabase database;

    private final LockDialect dialect;

    private final DataSource admin;

    private final LockView locks;

    private final WorkerPool workers;

    private final @Nullable H2TcpServer h2;

    private final @Nullable LettuceConnectionFactory redis;

    private final @Nullable LockRepository probe;

    private final FaultLog log;

    private int rowLockCount;

    /**
     * @param probe the controller's own repository on the lock table, with the workers' statement timeout, for the
     *     acquires it tries while rows are stalled; {@code null} on Redis
     */
    FaultInjector(TortureOptions options, DataSource admin, LockView locks, WorkerPool workers,
            @Nullable H2TcpServer h2, @Nullable LettuceConnectionFactory redis, @Nullable LockRepository probe,
            FaultLog log) {
        this.options = options;
        this.database = options.database();
        this.dialect = database.dialect();
        this.admin = admin;
        this.locks = locks;
        this.workers = workers;
        this.h2 = h2;
        this.redis = redis;
        this.probe = probe;
        this.log = log;
    }

    /** Injects faults until {@code endNanos} (of {@link System#nanoTime()}), leaving the last one time to play out. */
    void run(long endNanos) throws InterruptedException, SQLException, IOException {
        List<Fault> rotation = options.faults().stream().filter(fault -> fault != Fault.SKEW).toList();
        long needed = options.pauseLength().plusSeconds(3).toNanos();
        Thread.sleep(WARM_UP.toMillis());
        for (int next = 0; !rotation.isEmpty() && System.nanoTime() + needed < endNanos; next++) {
            switch (rotation.get(next % rotation.size())) {
                case KILL -> kill();
                case PAUSE -> pause();
                case DISCONNECT -> disconnect();
                case POOL -> pool();
                case ROWLOCK -> rowLock();
                default -> throw new IllegalStateException();
            }
            Thread.sleep(1500 + ThreadLocalRandom.current().nextInt(1000));
        }
        long rest = endNanos - System.nanoTime();
        if (rest > 0) {
            TimeUnit.NANOSECONDS.sleep(rest);
        }
    }

    private void kill() throws SQLException, IOException, InterruptedException {
        Optional<Holder> holder = findHolder();
        if (holder.isEmpty()) {
            log.skip(Fault.KILL);
            return;
        }
        WorkerProcess victim = holder.get().worker();
        victim.kill();
        Instant killedAt = locks.now();
        Map<String, Long> held = new HashMap<>();
        for (LockView.LockRow row : locks.live()) {
            if (row.owner().startsWith(victim.name() + ":")) {
                held.put(row.resource(), row.token());
            }
        }
        // The replacement starts after the takeover: a JVM start-up would take the CPU the waiting workers need.
        List<FaultLog.Takeover> takeovers = awaitTakeovers(held, killedAt);
        workers.replace(victim);
        log.add(new FaultLog.Kill(victim.name(), victim.pid(), killedAt, takeovers));
        say("kill " + victim.name() + ": " + (takeovers.isEmpty() ? "its lock was released just before"
                : takeovers.stream().map(t -> t.lock() + " token " + t.killedToken() + (t.happened()
                        ? " taken over by token " + t.newToken() + " after " + t.takeoverMillis() + " ms"
                        : " NOT taken over")).toList()));
    }

    /**
     * Polls the locks until every lock of the killed worker has a new holder, taking the new holder's acquisition
     * time: the first one seen, so a holder that came and went unseen can only make it later.
     */
    private List<FaultLog.Takeover> awaitTakeovers(Map<String, Long> held, Instant killedAt)
            throws SQLException, InterruptedException {
        Map<String, FaultLog.Takeover> done = new HashMap<>();
        long deadline = System.nanoTime() + options.ttl().plusSeconds(10).toNanos();
        while (done.size() < held.size() && System.nanoTime() < deadline) {
            for (LockView.LockRow row : locks.all()) {
                Long killedToken = held.get(row.resource());
                if (killedToken != null && row.token() != killedToken && !done.containsKey(row.resource())) {
                    done.put(row.resource(), new FaultLog.Takeover(row.resource(), killedToken, row.token(),
                            Duration.between(killedAt, row.acquiredAt()).toMillis()));
                }
            }
            Thread.sleep(20);
        }
        List<FaultLog.Takeover> takeovers = new ArrayList<>(done.values());
        held.forEach((lock, token) -> {
            if (!done.containsKey(lock)) {
                takeovers.add(new FaultLog.Takeover(lock, token, -1, -1));
            }
        });
        return takeovers;
    }

    private void pause() throws SQLException, InterruptedException {
        Optional<Holder> holder = findHolder();
        if (holder.isEmpty()) {
            log.skip(Fault.PAUSE);
            return;
        }
        WorkerProcess victim = holder.get().worker();
        workers.markPaused(victim, true);
        Instant from = ledgerNow();
        try {
            victim.signal("STOP");
            Thread.sleep(options.pauseLength().toMillis());
        }
        finally {
            victim.signal("CONT");
            workers.markPaused(victim, false);
        }
        Instant to = ledgerNow();
        log.add(new FaultLog.Pause(victim.name(), victim.pid(), from, to));
        say("pause " + victim.name() + " (holding " + holder.get().resource() + " token " + holder.get().token()
                + ") for " + Duration.between(from, to).toMillis() + " ms");
    }

    private void disconnect() throws SQLException, InterruptedException {
        Optional<Holder> holder = findHolder();
        if (holder.isEmpty()) {
            log.skip(Fault.DISCONNECT);
            return;
        }
        WorkerProcess victim = holder.get().worker();
        int sessions;
        String target = victim.name();
        if (redis != null) {
            sessions = RedisTarget.killClients(redis, victim.name());
        }
        else {
            switch (database) {
                case POSTGRESQL -> sessions = queryInt("SELECT COUNT(*) FILTER (WHERE pg_terminate_backend(pid)) "
                        + "FROM pg_stat_activity WHERE application_name = ?", victim.name());
                case MARIADB -> sessions = killMariaDbSessions(victim.pid());
                case H2 -> {
                    sessions = queryInt("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS "
                            + "WHERE CLIENT_ADDR IS NOT NULL AND 1 = ?", 1);
                    target = "all";
                    if (h2 != null) {
                        h2.restart();
                    }
                }
                default -> throw new IllegalStateException();
            }
        }
        Instant at = ledgerNow();
        log.add(new FaultLog.Disconnect(target, at, sessions));
        say("disconnect " + target + " (" + victim.name() + " holds " + holder.get().resource() + "): " + sessions
                + (redis != null ? " Redis connections" : " sessions") + " cut");
    }

    /**
     * Tells the lock holder that holds the most locks to hold its pool: each guarded section it runs or starts within
     * {@link TortureOptions#poolWindow()} goes on, once its lease has been renewed, to take every connection left in
     * the pool and hold them in open transactions for longer than the TTL. Waits until those sections gave their
     * connections back.
     */
    private void pool() throws SQLException, InterruptedException {
        Optional<Holder> holder = findBusiestHolder();
        if (holder.isEmpty()) {
            log.skip(Fault.POOL);
            return;
        }
        WorkerProcess victim = holder.get().worker();
        long startedBefore = victim.count(" EVENT HOGGING ");
        long endedBefore = victim.count(" EVENT HOG ");
        Instant from = ledgerNow();
        long start = System.nanoTime();
        victim.command("hog " + options.poolWindow().toMillis());
        long latest = start + options.poolWindow().plus(options.ttl()).plus(options.poolHold()).plusSeconds(2)
                .toNanos();
        long windowEnd = start + options.poolWindow().toNanos();
        while (System.nanoTime() - latest < 0 && victim.isAlive()) {
            Thread.sleep(50);
            long started = victim.count(" EVENT HOGGING ") - startedBefore;
            long ended = victim.count(" EVENT HOG ") - endedBefore;
            if (System.nanoTime() - windowEnd > 0 && started > 0 && ended >= started) {
                break;
            }
        }
        int holding = (int) (victim.count(" EVENT HOGGING ") - startedBefore);
        Instant to = ledgerNow();
        if (holding == 0) {
            log.skip(Fault.POOL);
            say("pool " + victim.name() + ": no guarded section held the pool");
            return;
        }
        log.add(new FaultLog.PoolHog(victim.name(), victim.pid(), from, to, holding));
        say("pool " + victim.name() + " (holding " + holder.get().leases() + " locks): " + holding
                + " guarded sections held every free connection of its pool for " + options.poolHold().toMillis()
                + " ms, for " + Duration.between(from, to).toMillis() + " ms in all");
    }

    /**
     * Locks the row of a lock that the busiest holder holds, and on every other turn the row of another lock as well,
     * with {@code SELECT … FOR UPDATE} in a transaction of the controller's own; meanwhile tries to acquire each of
     * them with the workers' statement timeout; commits after {@link TortureOptions#rowLockLength()}.
     */
    private void rowLock() throws SQLException, InterruptedException {
        Optional<Holder> holder = findBusiestHolder();
        if (holder.isEmpty() || probe == null) {
            log.skip(Fault.ROWLOCK);
            return;
        }
        List<String> resources = new ArrayList<>(List.of(holder.get().resource()));
        if (rowLockCount++ % 2 == 1) {
            List<String> others = new ArrayList<>();
            for (int i = 0; i < options.locks(); i++) {
                String lock = TortureSchema.lockName(i);
                if (!holder.get().locks().contains(lock)) {
                    others.add(lock);
                }
            }
            if (!others.isEmpty()) {
                resources.add(others.get(ThreadLocalRandom.current().nextInt(others.size())));
            }
        }
        List<FaultLog.Probe> probes = new ArrayList<>();
        Instant from;
        Instant to;
        int locked = 0;
        try (Connection connection = admin.getConnection()) {
            connection.setAutoCommit(false);
            try {
                from = ledgerNow();
                long start = System.nanoTime();
                String marks = resources.stream().map(r -> "?").collect(Collectors.joining(", "));
                try (PreparedStatement statement = connection.prepareStatement("SELECT resource FROM "
                        + options.workload().lockTable() + " WHERE resource IN (" + marks + ") FOR UPDATE")) {
                    for (int i = 0; i < resources.size(); i++) {
                        statement.setString(i + 1, resources.get(i));
                    }
                    try (ResultSet rs = statement.executeQuery()) {
                        while (rs.next()) {
                            locked++;
                        }
                    }
                }
                for (String resource : resources) {
                    probes.add(probe(resource));
                }
                long end = start + options.rowLockLength().toNanos();
                while (System.nanoTime() - end < 0) {
                    Thread.sleep(Math.max(1, Math.min(50, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()))));
                }
            }
            finally {
                connection.commit();
            }
            to = ledgerNow();
        }
        log.add(new FaultLog.RowLock(List.copyOf(resources), holder.get().worker().name(),
                holder.get().worker().pid(), holder.get().leases(), from, to, List.copyOf(probes)));
        say("rowlock " + resources + " (" + locked + " rows; " + holder.get().worker().name() + " held "
                + holder.get().leases() + " locks) for " + Duration.between(from, to).toMillis() + " ms; acquires "
                + probes.stream().map(p -> p.resource() + (p.acquired() ? " ACQUIRED" : " not acquired") + " in "
                        + p.millis() + " ms" + (p.failure() != null ? " (" + p.failure() + ")" : "")).toList());
    }

    private FaultLog.Probe probe(String resource) {
        LockRepository repository = java.util.Objects.requireNonNull(probe, "probe");
        String owner = "torture-controller:probe-" + rowLockCount;
        long start = System.nanoTime();
        try {
            Optional<LockRecord> acquired = repository.acquire(resource, owner, options.ttl());
            long millis = (System.nanoTime() - start) / 1_000_000;
            acquired.ifPresent(record -> repository.release(resource, owner));
            return new FaultLog.Probe(resource, millis, acquired.isPresent(), null);
        }
        catch (RuntimeException ex) {
            return new FaultLog.Probe(resource, (System.nanoTime() - start) / 1_000_000, false,
                    ex.getClass().getSimpleName() + ": " + ex.getMessage());
        }
    }

    private int killMariaDbSessions(long pid) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Connection connection = admin.getConnection();
                PreparedStatement statement = connection.prepareStatement("SELECT s.session_id FROM "
                        + options.workload().sessionsTable() + " s JOIN information_schema.PROCESSLIST p "
                        + "ON p.ID = s.session_id WHERE s.worker_pid = ?")) {
            statement.setLong(1, pid);
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        int killed = 0;
        try (Connection connection = admin.getConnection(); Statement statement = connection.createStatement()) {
            for (long id : ids) {
                try {
                    statement.execute("KILL CONNECTION " + id);
                    killed++;
                }
                catch (SQLException ex) {
                    // 1094 unknown thread: the session closed by itself meanwhile.
                }
            }
        }
        return killed;
    }

    /** A worker holding a live lock now, not paused; waits a little for one when none does. */
    private Optional<Holder> findHolder() throws SQLException, InterruptedException {
        List<Holder> holders = holders();
        return holders.isEmpty() ? Optional.empty()
                : Optional.of(holders.get(ThreadLocalRandom.current().nextInt(holders.size())));
    }

    /**
     * Of the workers holding live locks, one that holds the most: one holding two or more when one does within
     * {@link #FIND_HOLDER}, so that the fault meets leases renewed together.
     */
    private Optional<Holder> findBusiestHolder() throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + FIND_HOLDER.toNanos();
        Optional<Holder> busiest = Optional.empty();
        do {
            List<Holder> holders = new ArrayList<>(holders());
            Collections.shuffle(holders);
            busiest = holders.stream().max(java.util.Comparator.comparingInt(Holder::leases));
            if (busiest.isPresent() && busiest.get().leases() >= 2) {
                return busiest;
            }
            Thread.sleep(50);
        }
        while (System.nanoTime() < deadline);
        return busiest;
    }

    private List<Holder> holders() throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + FIND_HOLDER.toNanos();
        while (System.nanoTime() < deadline) {
            List<LockView.LockRow> live = locks.live();
            Map<Long, List<String>> byPid = live.stream().collect(Collectors.groupingBy(LockView.LockRow::pid,
                    Collectors.mapping(LockView.LockRow::resource, Collectors.toList())));
            List<Holder> holders = new ArrayList<>();
            for (LockView.LockRow row : live) {
                workers.running(row.pid()).ifPresent(w -> holders.add(new Holder(w, row.resource(), row.token(),
                        byPid.get(row.pid()))));
            }
            if (!holders.isEmpty()) {
                return holders;
            }
            Thread.sleep(50);
        }
        return List.of();
    }

    /** The clock of the database that holds the protected resources and the workers' records. */
    private Instant ledgerNow() throws SQLException {
        try (Connection connection = admin.getConnection();
                PreparedStatement statement = connection.prepareStatement("SELECT " + dialect.currentTimeExpression());
                ResultSet rs = statement.executeQuery()) {
            rs.next();
            return dialect.readInstant(rs, 1);
        }
    }

    private int queryInt(String sql, Object argument) throws SQLException {
        try (Connection connection = admin.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setObject(1, argument);
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static void say(String message) {
        System.out.println("  " + Instant.now() + " " + message);
    }

    /** A worker, one lock it holds, and every lock it holds. */
    private record Holder(WorkerProcess worker, String resource, long token, List<String> locks) {

        int leases() {
            return locks.size();
        }
    }
}
