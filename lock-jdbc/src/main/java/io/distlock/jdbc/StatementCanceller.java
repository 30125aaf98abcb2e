package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.util.ClassUtils;

/**
 * Cancels statements that run past their deadline, through JDBC's {@link Statement#cancel()}, and interrupts threads
 * that still wait for a pooled connection past theirs ({@link #watchCheckout}), from one daemon thread shared by every
 * repository that needs it. Watching a statement costs two map operations, where a JDBC query timeout
 * schedules and cancels a timer task per statement (PostgreSQL's driver: a shared {@link java.util.Timer}, about a
 * sixth of an uncontended acquire-and-release). Statements are checked every {@value #POLL_MILLIS} ms, so one is
 * cancelled at most that much after its deadline.
 *
 * <p>Cancels are sent from threads of their own, so that one the server does not answer holds up no other deadline;
 * against a server that answers nothing, the connection's network timeout ends the statement ({@link NetworkTimeout}).
 *
 * <p>A cancel ends the statement running on the connection when it arrives; the driver reports the cancelled statement
 * as cancelled (PostgreSQL: 57014), and the database rolls it back. A statement that ends while its cancel is being
 * sent waits for it ({@link #unwatch}), so that the cancel cannot reach a later statement on the same connection.
 */
final class StatementCanceller {

    private static final Logger logger = LoggerFactory.getLogger(StatementCanceller.class);

    static final long POLL_MILLIS = 50;

    /** Every statement watched now, with its deadline on {@link System#nanoTime()}. */
    private static final Map<Statement, Long> running = new ConcurrentHashMap<>();

    /** Every statement whose cancel is being sent, with what completes once it was. */
    private static final Map<Statement, CompletableFuture<Void>> cancelling = new ConcurrentHashMap<>();

    /** How long a statement that ended waits for its cancel, sent meanwhile, to reach the server. */
    static final long CANCEL_WAIT_MILLIS = 1_000;

    /** Every thread waiting for a connection now, with its deadline on {@link System#nanoTime()}. */
    private static final Map<Checkout, Long> checkouts = new ConcurrentHashMap<>();

    private static volatile @Nullable ScheduledExecutorService poller;

    /**
     * Where cancels are sent from. A driver's cancel may wait for the server (pgjdbc's opens a connection and waits
     * for it to close, up to its {@code cancelSignalTimeout}, 10 s by default): a server that answers nothing would
     * hold it that long, and on the poller every other deadline with it.
     */
    private static final ExecutorService cancels = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS,
            new SynchronousQueue<>(), task -> {
                Thread thread = new Thread(task, "distlock-statement-cancel");
                thread.setDaemon(true);
                return thread;
            });

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
        CompletableFuture<Void> cancel = cancelling.get(statement);
        if (cancel != null) {
            awaitCancel(statement, cancel);
        }
    }

    /**
     * Waits, after a statement ended, for the cancel sent for it, so that a cancel that reaches the server late ends no
     * later statement on the same connection; a connection the statement's failure closed runs none. A cancel the
     * server does not answer within {@link #CANCEL_WAIT_MILLIS} leaves the connection aborted, for the same reason.
     */
    private static void awaitCancel(Statement statement, CompletableFuture<Void> cancel) {
        Connection connection;
        try {
            connection = statement.getConnection();
            // A pool's handle stays open until given back: whether the driver closed the connection is its own.
            if (SessionSettings.physical(connection).isClosed()) {
                return;
            }
        }
        catch (SQLException | RuntimeException ex) {
            return;
        }
        try {
            cancel.get(CANCEL_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        }
        catch (TimeoutException ex) {
            try {
                connection.abort(Runnable::run);
            }
            catch (SQLException | RuntimeException abort) {
                logger.debug("Could not abort a lock connection whose statement's cancel went unanswered", abort);
            }
        }
        catch (ExecutionException ex) {
            // The cancel failed: nothing reached the server.
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
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
            if (now - deadline < 0) {
                return;
            }
            // Known as cancelling before it stops being running, so that a statement that ends meanwhile waits for it.
            CompletableFuture<Void> cancel = new CompletableFuture<>();
            cancelling.put(statement, cancel);
            if (!running.remove(statement, deadline)) {
                cancelling.remove(statement, cancel);
                cancel.complete(null);
                return;
            }
            cancels.execute(() -> {
                try {
                    cancel(statement);
                }
                finally {
                    cancelling.remove(statement, cancel);
                    cancel.complete(null);
                }
            });
        });
    }

    /**
     * Cancels a statement. On pgjdbc, through its connection ({@code PGConnection.cancelQuery}, the same cancel
     * request): {@link Statement#cancel()} holds the connection's monitor until the server answers the cancel, and the
     * statement, once it ends, waits for that monitor — up to the driver's {@code cancelSignalTimeout}, 10 s by
     * default, when the server answers nothing.
     */
    private static void cancel(Statement statement) {
        try {
            if (!Pgjdbc.PRESENT || !Pgjdbc.cancel(statement)) {
                statement.cancel();
            }
        }
        catch (SQLException | RuntimeException ex) {
            logger.debug("Could not cancel a lock statement that ran out of time", ex);
        }
    }

    /** pgjdbc's connection-level cancel, loaded only when pgjdbc is on the class path. */
    private static final class Pgjdbc {

        static final boolean PRESENT = ClassUtils.isPresent("org.postgresql.PGConnection",
                StatementCanceller.class.getClassLoader());

        static boolean cancel(Statement statement) throws SQLException {
            Connection connection = statement.getConnection();
            if (!connection.isWrapperFor(org.postgresql.PGConnection.class)) {
                return false;
            }
            connection.unwrap(org.postgresql.PGConnection.class).cancelQuery();
            return true;
        }
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
