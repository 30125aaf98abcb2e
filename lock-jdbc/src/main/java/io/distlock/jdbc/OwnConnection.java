package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pooled connection of the lock statements' own, in autocommit, its session prepared for them, given back with the
 * session settings it came in; and the one transaction on such a connection that work of several statements needs
 * ({@link #inTransaction}).
 *
 * <p>Its waits for the server are bounded by a network timeout ({@link NetworkTimeout}) from the moment it is taken
 * until it is given back, session preparation included, so that a server that answers nothing breaks it instead of
 * holding the caller.
 *
 * @param connection the connection
 * @param sessions what prepared its session
 * @param changes what to set back
 * @param networkTimeoutBefore the network timeout to set back, or {@link NetworkTimeout#UNCHANGED}
 */
record OwnConnection(Connection connection, SessionSettings sessions, SessionSettings.Changes changes,
        int networkTimeoutBefore) implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(OwnConnection.class);

    /**
     * Takes a connection of its own and prepares its session.
     *
     * @param own where connections of their own come from
     * @param sessions what prepares the session
     * @param waitNanos how long to wait for the data source at most, or 0 for no bound
     * @param networkTimeoutMillis the bound of its waits for the server, or 0 for none
     * @return the connection
     * @throws SQLException when the data source gives none, or the session cannot be prepared
     */
    static OwnConnection open(OwnConnections own, SessionSettings sessions, long waitNanos, int networkTimeoutMillis)
            throws SQLException {
        Connection connection = own.take(waitNanos);
        int before = NetworkTimeout.UNCHANGED;
        try {
            before = NetworkTimeout.apply(connection, networkTimeoutMillis);
            return new OwnConnection(connection, sessions, sessions.prepare(connection), before);
        }
        catch (SQLException | RuntimeException ex) {
            NetworkTimeout.restore(connection, before);
            connection.close();
            throw ex;
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            sessions.restore(connection, changes);
        }
        finally {
            NetworkTimeout.restore(connection, networkTimeoutBefore);
            connection.close();
        }
    }

    /**
     * Runs work as one transaction on a connection of its own: commits what it did when it returns, rolls all of it
     * back when it throws, and gives the connection back in autocommit.
     *
     * @param connection a connection of its own, in autocommit
     * @param work the work, on that connection
     * @return what the work returned
     * @throws SQLException when the work, the commit or the rollback fails
     */
    static <T> T inTransaction(Connection connection, TransactionWork<T> work) throws SQLException {
        connection.setAutoCommit(false);
        try {
            T result;
            try {
                result = work.run();
                connection.commit();
            }
            catch (Throwable ex) {
                try {
                    connection.rollback();
                }
                catch (SQLException rollback) {
                    ex.addSuppressed(rollback);
                }
                throw ex;
            }
            return result;
        }
        finally {
            try {
                connection.setAutoCommit(true);
            }
            catch (SQLException ex) {
                // A broken connection: the pool discards it; what the work raised is what the caller needs.
                logger.debug("Could not set autocommit back on a lock connection", ex);
            }
        }
    }

    /** Work in a transaction on a connection the caller holds. */
    @FunctionalInterface
    interface TransactionWork<T> {

        T run() throws SQLException;
    }
}
