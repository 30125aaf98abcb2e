package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.distlock.core.ReleaseFeed;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Listens for the notifications PostgreSQL releases send ({@code pg_notify(channel, resource)}) on one connection of
 * its own, for one manager, and tells the manager of releases of the resources its threads wait for. The connection
 * is taken from the repository's data source when the first resource is watched, read by a daemon thread with
 * pgjdbc's {@link PGConnection#getNotifications(int)}, and given back once nothing was watched for {@link #linger}
 * or the feed is closed: no connection is pinned per waiting thread, and a manager whose threads do not wait holds
 * none.
 *
 * <p>Every time it starts listening — the first time, and after each reconnection — it tells of a release of every
 * watched resource, so that a waiter tries once more: a release between a waiter's last attempt and the start of
 * listening, or during an outage, is then not left to the next poll. A connection that fails (terminated, the server
 * restarted, the network gone: found by the read, or by a {@code LISTEN} sent again after {@link #CHECK_AFTER} of
 * silence, which fails when no answer comes within as long again) is given back, and the feed reconnects with backoff from {@link #MIN_RECONNECT} doubling to
 * {@link #MAX_RECONNECT}, telling the outage once at WARN and its end at INFO. Meanwhile waiters poll as without
 * notifications.
 */
final class PostgreSqlReleaseFeed implements ReleaseFeed {

    private static final Logger logger = LoggerFactory.getLogger(PostgreSqlReleaseFeed.class);

    /** How long one read for notifications waits; also how soon the thread sees that it should stop. */
    static final int READ_MILLIS = 250;

    /** Silence after which the connection is checked with a {@code LISTEN} sent again. */
    static final Duration CHECK_AFTER = Duration.ofSeconds(10);

    /** The first pause before reconnecting. */
    static final Duration MIN_RECONNECT = Duration.ofMillis(100);

    /** The longest pause between two reconnection attempts. */
    static final Duration MAX_RECONNECT = Duration.ofSeconds(30);

    /** How long the connection is kept after the last watched resource is unwatched, by default. */
    static final Duration DEFAULT_LINGER = Duration.ofSeconds(30);

    private final StatementExecutor executor;

    private final String channel;

    private final String table;

    private final Consumer<String> listener;

    private final Duration linger;

    private final Set<String> watched = ConcurrentHashMap.newKeySet();

    private final Object lock = new Object();

    /** Guarded by {@link #lock}. */
    private @Nullable Thread thread;

    /** Guarded by {@link #lock}. */
    private boolean closed;

    /** Guarded by {@link #lock}: when the watched set last became empty, by {@link System#nanoTime()}. */
    private long idleSince;

    PostgreSqlReleaseFeed(StatementExecutor executor, String channel, String table, Consumer<String> listener,
            Duration linger) {
        this.executor = executor;
        this.channel = channel;
        this.table = table;
        this.listener = listener;
        this.linger = linger;
    }

    @Override
    public void watch(String resource) {
        watched.add(resource);
        synchronized (lock) {
            if (!closed && thread == null) {
                Thread started = new Thread(this::run, "distlock-notifications-" + table);
                started.setDaemon(true);
                thread = started;
                started.start();
            }
        }
    }

    @Override
    public void unwatch(String resource) {
        watched.remove(resource);
        synchronized (lock) {
            if (watched.isEmpty()) {
                idleSince = System.nanoTime();
            }
        }
    }

    /**
     * Stops listening and waits a little for the connection to go back.
     */
    @Override
    public void close() {
        Thread running;
        synchronized (lock) {
            closed = true;
            running = thread;
            lock.notifyAll();
        }
        if (running != null && running != Thread.currentThread()) {
            try {
                running.join(4L * READ_MILLIS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        long backoffNanos = MIN_RECONNECT.toNanos();
        boolean outage = false;
        while (keepRunning()) {
            try (OwnConnection own = executor.open()) {
                Connection connection = own.connection();
                if (!connection.isWrapperFor(PGConnection.class)) {
                    logger.warn("Cannot listen for lock releases on channel {} of {}: the data source's connections "
                            + "are not pgjdbc's ({}). Waiters in this process poll", channel, table,
                            connection.getClass().getName());
                    stop();
                    return;
                }
                try {
                    // Bounds every read but the waits for notifications, which set their own: a check on a
                    // connection cut without a word fails instead of waiting for the operating system to give up.
                    connection.setNetworkTimeout(Runnable::run, (int) CHECK_AFTER.toMillis());
                    listen(connection);
                    if (outage) {
                        logger.info("Listening for lock releases on channel {} of {} again", channel, table);
                        outage = false;
                    }
                    backoffNanos = MIN_RECONNECT.toNanos();
                    watched.forEach(listener);
                    read(connection, connection.unwrap(PGConnection.class));
                    unlisten(connection);
                }
                catch (SQLException | RuntimeException ex) {
                    evictIfBroken(connection);
                    throw ex;
                }
            }
            catch (SQLException | RuntimeException ex) {
                if (!keepRunning()) {
                    break;
                }
                if (!outage) {
                    logger.warn("Listening for lock releases on channel {} of {} failed: {}. Waiters in this process "
                            + "poll with backoff until it is back; reconnecting", channel, table, ex.getMessage());
                    outage = true;
                }
                else {
                    logger.debug("Listening for lock releases on channel {} of {} failed again: {}", channel, table,
                            ex.getMessage());
                }
                pause(backoffNanos);
                backoffNanos = Math.min(MAX_RECONNECT.toNanos(), backoffNanos * 2);
            }
        }
    }

    /** Reads notifications until the feed closes or lingers idle too long. */
    private void read(Connection connection, PGConnection pg) throws SQLException {
        long checkNanos = CHECK_AFTER.toNanos();
        long lastHeard = System.nanoTime();
        while (keepRunning()) {
            PGNotification[] notifications = pg.getNotifications(READ_MILLIS);
            long now = System.nanoTime();
            if (notifications != null && notifications.length > 0) {
                lastHeard = now;
                for (PGNotification notification : notifications) {
                    String resource = notification.getParameter();
                    if (channel.equals(notification.getName()) && watched.contains(resource)) {
                        listener.accept(resource);
                    }
                }
            }
            else if (now - lastHeard >= checkNanos) {
                // A connection cut without a word (a network gone) reads as silence: a round trip finds out.
                listen(connection);
                lastHeard = now;
            }
        }
    }

    /** Stops for good: this feed cannot listen. */
    private void stop() {
        synchronized (lock) {
            closed = true;
            thread = null;
        }
    }

        /** Whether the thread goes on; when not, it is no longer the feed's thread. */
    private boolean keepRunning() {
        synchronized (lock) {
            boolean idle = watched.isEmpty() && System.nanoTime() - idleSince >= linger.toNanos();
            if (closed || idle) {
                if (thread == Thread.currentThread()) {
                    thread = null;
                }
                return false;
            }
            return true;
        }
    }

    private void pause(long nanos) {
        long deadline = System.nanoTime() + nanos;
        synchronized (lock) {
            for (long left = nanos; !closed && left > 0; left = deadline - System.nanoTime()) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void listen(Connection connection) throws SQLException {
        execute(connection, "LISTEN \"" + channel + "\"");
    }

    private void unlisten(Connection connection) {
        try {
            execute(connection, "UNLISTEN \"" + channel + "\"");
        }
        catch (SQLException ex) {
            logger.debug("Could not stop listening on channel {}", channel, ex);
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /**
     * Sends a statement through the pool's own connection after a failure the pool did not see (the read goes to the
     * driver's connection beneath it), so that a pool that evicts connections on fatal errors evicts this one.
     */
    private static void evictIfBroken(Connection connection) {
        try {
            execute(connection, "SELECT 1");
        }
        catch (SQLException | RuntimeException ex) {
            logger.debug("The connection that listened for lock releases is broken", ex);
        }
    }
}
