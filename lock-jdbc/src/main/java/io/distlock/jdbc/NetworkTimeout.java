package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bound on every wait of a lock connection for its server ({@link Connection#setNetworkTimeout}), so that a
 * server that stops answering — a frozen process, a network path that swallows packets while TCP stays open — holds
 * no lock operation past the library's own bound. The statement timeout ends a statement on a server that answers
 * (its cancel, or the statement's own bound, answered at once); against a server that answers nothing, the cancel
 * goes unanswered too, and this timeout breaks the connection instead, which the driver closes and the pool discards.
 * It is longer than the statement timeout by half of it, at least {@link #MIN_MARGIN}, so that a statement cancelled at
 * its timeout has time for the server's answer and keeps its connection. Set when a connection of its own is taken,
 * before its session is prepared, and set back when it is given back; a connection already bound tighter keeps its
 * own. Drivers without network timeouts (H2's, whose calls do nothing) keep no such bound.
 */
final class NetworkTimeout {

    private static final Logger logger = LoggerFactory.getLogger(NetworkTimeout.class);

    /** The least time a cancelled statement has for the server's answer before its connection is broken. */
    static final Duration MIN_MARGIN = Duration.ofMillis(500);

    /** Left as it was. */
    static final int UNCHANGED = -1;

    private NetworkTimeout() {
    }

    /**
     * The network timeout of the lock connections for a statement timeout.
     *
     * @param statementTimeout the statement timeout
     * @return one and a half times it, and at least {@link #MIN_MARGIN} longer
     */
    static Duration after(Duration statementTimeout) {
        Duration margin = statementTimeout.dividedBy(2);
        return statementTimeout.plus(margin.compareTo(MIN_MARGIN) < 0 ? MIN_MARGIN : margin);
    }

    /**
     * Bounds a connection's waits for its server, unless it is bound tighter already.
     *
     * @param connection a connection of its own
     * @param millis the bound, or 0 for none
     * @return the bound to set back, or {@link #UNCHANGED}
     * @throws SQLException when the driver cannot read or change it, other than by not supporting it
     */
    static int apply(Connection connection, int millis) throws SQLException {
        if (millis <= 0) {
            return UNCHANGED;
        }
        int before;
        try {
            before = connection.getNetworkTimeout();
        }
        catch (java.sql.SQLFeatureNotSupportedException | AbstractMethodError ex) {
            return UNCHANGED;
        }
        if (before > 0 && before <= millis) {
            return UNCHANGED;
        }
        // Drivers read the timeout on their own reads: none needs the executor to run anything later.
        connection.setNetworkTimeout(Runnable::run, millis);
        return before;
    }

    /**
     * Sets back what {@link #apply} changed. A connection the timeout broke cannot be changed any more: the pool
     * discards it, so a failure here is only logged.
     *
     * @param connection the connection
     * @param before what {@link #apply} answered
     */
    static void restore(Connection connection, int before) {
        if (before == UNCHANGED) {
            return;
        }
        try {
            connection.setNetworkTimeout(Runnable::run, before);
        }
        catch (SQLException | RuntimeException ex) {
            logger.debug("Could not set the network timeout of a lock connection back to {} ms", before, ex);
        }
    }
}
