package io.distlock.jdbc;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancels statements that run past their deadline, through JDBC's {@link Statement#cancel()}, from one daemon thread
 * shared by every repository that needs it. Watching a statement costs two map operations, where a JDBC query timeout
 * schedules and cancels a timer task per statement (PostgreSQL's driver: a shared {@link java.util.Timer}, about a
 * sixth of an uncontended acquire-and-release). Statements are checked every {@value #POLL_MILLIS} ms, so one is
 * cancelled at most that much after its deadline.
 *
 * <p>A driver's {@code cancel()} ends only the statement it is called on, and a statement that already finished
 * ignores it; the driver reports the cancelled statement as cancelled (PostgreSQL: 57014), and the database rolls it
 * back.
 */
final class StatementCanceller {

    private static final Logger logger = LoggerFactory.getLogger(StatementCanceller.class);

    static final long POLL_MILLIS = 50;

    /** Every statement watched now, with its deadline on {@link System#nanoTime()}. */
    private static final Map<Statement, Long> running = new ConcurrentHashMap<>();

    private static volatile @Nullable ScheduledExecutorService poller;

    private StatementCanceller() {
    }

    /**
     * Starts watching a statement about to run.
     *
     * @param statement the statement
     * @param timeoutNanos how long it may run
     */
    static void watch(Statement statement, long timeoutNanos) {
        if (poller == null) {
            start();
        }
        running.put(statement, System.nanoTime() + timeoutNanos);
    }

    /**
     * Stops watching a statement that finished, however it finished.
     *
     * @param statement the statement
     */
    static void unwatch(Statement statement) {
        running.remove(statement);
    }

    private static synchronized void start() {
        if (poller != null) {
            return;
        }
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "distlock-statement-timeouts");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(StatementCanceller::cancelOverdue, POLL_MILLIS, POLL_MILLIS,
                TimeUnit.MILLISECONDS);
        poller = executor;
    }

    private static void cancelOverdue() {
        if (running.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        running.forEach((statement, deadline) -> {
            if (now - deadline >= 0 && running.remove(statement, deadline)) {
                try {
                    statement.cancel();
                }
                catch (SQLException | RuntimeException ex) {
                    logger.debug("Could not cancel a lock statement that ran out of time", ex);
                }
            }
        });
    }
}
