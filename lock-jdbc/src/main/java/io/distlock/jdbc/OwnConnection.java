package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A pooled connection of the lock statements' own, in autocommit, its session prepared for them, given back with the
 * session settings it came in.
 *
 * @param connection the connection
 * @param sessions what prepared its session
 * @param changes what to set back
 */
record OwnConnection(Connection connection, SessionSettings sessions, SessionSettings.Changes changes)
        implements AutoCloseable {

    /**
     * Takes a connection of its own and prepares its session.
     *
     * @param own where connections of their own come from
     * @param sessions what prepares the session
     * @param waitNanos how long to wait for the data source at most, or 0 for no bound
     * @return the connection
     * @throws SQLException when the data source gives none, or the session cannot be prepared
     */
    static OwnConnection open(OwnConnections own, SessionSettings sessions, long waitNanos) throws SQLException {
        Connection connection = own.take(waitNanos);
        try {
            return new OwnConnection(connection, sessions, sessions.prepare(connection));
        }
        catch (SQLException | RuntimeException ex) {
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
            connection.close();
        }
    }
}
