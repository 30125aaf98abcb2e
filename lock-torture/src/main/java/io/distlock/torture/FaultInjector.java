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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.distlock.core.jdbc.dialect.LockDialect;
import io.distlock.testsupport.TestDatabase;
import org.jspecify.annotations.Nullable;

/**
 * Injects the dynamic faults in turn (kill, pause, disconnect) while the workers run, each aimed at a worker that
 * holds a lock at that moment, and records them in a {@link FaultLog}. Clock skew is applied when workers start.
 */
final class FaultInjector {

    private static final Duration WARM_UP = Duration.ofSeconds(3);

    private static final Duration FIND_HOLDER = Duration.ofSeconds(3);

    private final TortureOptions options;

    private final TestDatabase database;

    private final LockDialect dialect;

    private final DataSource admin;

    private final WorkerPool workers;

    private final @Nullable H2TcpServer h2;

    private final FaultLog log;

    FaultInjector(TortureOptions options, DataSource admin, WorkerPool workers, @Nullable H2TcpServer h2,
            FaultLog log) {
        this.options = options;
        this.database = options.database();
        this.dialect = database.dialect();
        this.admin = admin;
        this.workers = workers;
        this.h2 = h2;
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
        Instant killedAt = databaseNow();
        Map<String, Long> held = new HashMap<>();
        for (LockRow row : liveLocks()) {
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
     * Polls the lock rows until every lock of the killed worker has a new holder, taking the new holder's
     * {@code acquired_at}: the first one seen, so a holder that came and went unseen can only make it later.
     */
    private List<FaultLog.Takeover> awaitTakeovers(Map<String, Long> held, Instant killedAt)
            throws SQLException, InterruptedException {
        Map<String, FaultLog.Takeover> done = new HashMap<>();
        long deadline = System.nanoTime() + options.ttl().plusSeconds(10).toNanos();
        while (done.size() < held.size() && System.nanoTime() < deadline) {
            for (LockRow row : allLocks()) {
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
        Instant from = databaseNow();
        try {
            victim.signal("STOP");
            Thread.sleep(options.pauseLength().toMillis());
        }
        finally {
            victim.signal("CONT");
            workers.markPaused(victim, false);
        }
        Instant to = databaseNow();
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
        Instant at = databaseNow();
        log.add(new FaultLog.Disconnect(target, at, sessions));
        say("disconnect " + target + " (" + victim.name() + " holds " + holder.get().resource() + "): " + sessions
                + " sessions cut");
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
        long deadline = System.nanoTime() + FIND_HOLDER.toNanos();
        while (System.nanoTime() < deadline) {
            List<Holder> holders = new ArrayList<>();
            for (LockRow row : liveLocks()) {
                workers.running(row.pid()).ifPresent(w -> holders.add(new Holder(w, row.resource(), row.token())));
            }
            if (!holders.isEmpty()) {
                return Optional.of(holders.get(ThreadLocalRandom.current().nextInt(holders.size())));
            }
            Thread.sleep(50);
        }
        return Optional.empty();
    }

    private List<LockRow> liveLocks() throws SQLException {
        return locks(" WHERE expires_at > " + dialect.currentTimeExpression());
    }

    private List<LockRow> allLocks() throws SQLException {
        return locks("");
    }

    private List<LockRow> locks(String where) throws SQLException {
        List<LockRow> rows = new ArrayList<>();
        try (Connection connection = admin.getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "SELECT resource, owner, token, acquired_at FROM " + options.workload().lockTable() + where);
                ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                rows.add(new LockRow(rs.getString(1), rs.getString(2), rs.getLong(3), dialect.readInstant(rs, 4)));
            }
        }
        return rows;
    }

    private Instant databaseNow() throws SQLException {
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

    /** A worker and one lock it holds. */
    private record Holder(WorkerProcess worker, String resource, long token) {
    }

    /** A row of the lock table; the owner starts with the worker's name, {@code w<slot>-<pid>:}. */
    private record LockRow(String resource, String owner, long token, Instant acquiredAt) {

        long pid() {
            int colon = owner.indexOf(':');
            int dash = owner.lastIndexOf('-', colon);
            try {
                return colon > 0 && dash > 0 ? Long.parseLong(owner.substring(dash + 1, colon)) : -1;
            }
            catch (NumberFormatException ex) {
                return -1;
            }
        }
    }
}
