package io.distlock.jdbc;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancels statements that run past their deadline, through JDBC's {@link Statement#cancel()}, and interrupts threads
 * that still wait for a pooled connection past theirs ({@link #watchCheckout}), from one daemon thread shared by every
 * repository that needs it. Watching a statement costs two map operations, where a JDBC query timeout
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

    /** Every thread waiting for a connection now, with its deadline on {@link System#nanoTime()}. */
    private static final Map<Checkout, Long> checkouts = new ConcurrentHashMap<>();

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

    /**
     * Starts watching the calling thread while it waits for a connection: once the timeout passes, the thread is
     * interrupted, which pools such as HikariCP answer by giving up the wait with an {@link SQLException}.
     *
     * @param timeoutNanos how long the thread may wait
     * @return what to hand to {@link #endCheckout} once the wait is over, however it ended
     */
    static Checkout watchCheckout(long timeoutNanos) {
        if (poller == null) {
            start();
        }
        Checkout checkout = new Checkout(Thread.currentThread());
        checkouts.put(checkout, System.nanoTime() + timeoutNanos);
        return checkout;
    }

    /**
     * Stops watching a wait for a connection, and clears the interrupt the deadline caused, if it did.
     *
     * @param checkout what {@link #watchCheckout} answered, on the same thread
     * @return whether the deadline passed and interrupted the wait
     */
    static boolean endCheckout(Checkout checkout) {
        checkouts.remove(checkout);
        if (checkout.state.compareAndSet(Checkout.WAITING, Checkout.DONE)) {
            return false;
        }
        while (checkout.state.get() != Checkout.INTERRUPTED) {
            Thread.onSpinWait();
        }
        Thread.interrupted();
        return true;
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
        long now = System.nanoTime();
        checkouts.forEach((checkout, deadline) -> {
            if (now - deadline >= 0 && checkouts.remove(checkout, deadline)
                    && checkout.state.compareAndSet(Checkout.WAITING, Checkout.INTERRUPTING)) {
                checkout.thread.interrupt();
                checkout.state.set(Checkout.INTERRUPTED);
            }
        });
        if (running.isEmpty()) {
            return;
        }
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

    /** A thread waiting for a connection, and whether its deadline interrupted it. */
    static final class Checkout {

        static final int WAITING = 0;

        static final int DONE = 1;

        static final int INTERRUPTING = 2;

        static final int INTERRUPTED = 3;

        final Thread thread;

        final AtomicInteger state = new AtomicInteger(WAITING);

        Checkout(Thread thread) {
            this.thread = thread;
        }
    }
}
