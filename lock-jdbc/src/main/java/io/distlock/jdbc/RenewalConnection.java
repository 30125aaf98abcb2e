package io.distlock.jdbc;

import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection lease renewals keep for themselves while the watchdog keeps leases alive, so that renewals never
 * wait for the pool that the guarded work may hold entirely. Taken when the reservation starts — in the thread of the
 * first lease to be kept alive, before its guarded work runs — used by every batch renewal after it, replaced when it
 * breaks (any failure on it closes it, and the next renewal or the next lease to be kept alive, whichever comes first,
 * takes a fresh one), and given back when the reservation ends. A renewal that finds it busy with another renewal
 * takes a pooled connection.
 */
final class RenewalConnection {

    private static final Logger logger = LoggerFactory.getLogger(RenewalConnection.class);

    private final StatementExecutor executor;

    private final ReentrantLock lock = new ReentrantLock();

    /** Who wants the reservation: one per watchdog on this store. Changed under {@link #lock}. */
    private final Set<Object> holders = ConcurrentHashMap.newKeySet();

    private volatile boolean reserving;

    /** Written under {@link #lock}; read without it as a hint. */
    private volatile @Nullable OwnConnection reserved;

    RenewalConnection(StatementExecutor executor) {
        this.executor = executor;
    }

    /**
     * Starts or ends the reservation. Starting — or asking again while it lasts — takes the connection now unless one
     * is held (waiting for the pool at most as long as the pool lets callers wait; when it gives none, the next renewal
     * tries again). Ending waits for a renewal in flight on the reserved connection and gives it back, once no holder
     * wants the reservation any more.
     *
     * @param holder who asks, one per watchdog
     * @param reserve whether the holder's leases are being kept alive
     */
    void reserve(Object holder, boolean reserve) {
        if (reserve && reserved != null && holders.contains(holder)) {
            return; // held, and perhaps busy with a renewal: nothing to wait for
        }
        lock.lock();
        try {
            if (reserve) {
                holders.add(holder);
            }
            else {
                holders.remove(holder);
            }
            reserving = !holders.isEmpty();
            if (!reserving) {
                discard();
            }
            else if (reserve && reserved == null) {
                reserved = executor.openForRenewal();
            }
        }
        catch (SQLException ex) {
            // Told at WARN, naming the pool; the next renewal tries again.
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * Runs a renewal on the reserved connection while there is a reservation, or else on a pooled connection.
     *
     * @param task what the work does, for messages
     * @param timed the work's main statement, for messages
     * @param work the work
     * @return what the work returned
     */
    <T> T run(String task, TimedStatement timed, StatementExecutor.SqlWork<T> work) {
        if (!reserving || !lock.tryLock()) {
            return executor.runAlone(task, timed, work, true);
        }
        try {
            if (!reserving) {
                return executor.runAlone(task, timed, work, true);
            }
            if (reserved == null) {
                try {
                    reserved = executor.openForRenewal();
                }
                catch (SQLException ex) {
                    throw executor.translate(task, timed.sql(), ex);
                }
            }
            try {
                return work.run(reserved.connection());
            }
            catch (SQLException ex) {
                discard();
                throw executor.translate(task, timed.sql(), ex);
            }
            catch (RuntimeException ex) {
                discard();
                throw ex;
            }
        }
        finally {
            lock.unlock();
        }
    }

    private void discard() {
        OwnConnection held = reserved;
        reserved = null;
        if (held != null) {
            try {
                held.close();
            }
            catch (SQLException | RuntimeException ex) {
                logger.debug("Could not give back the connection reserved for renewals", ex);
            }
        }
    }
}
