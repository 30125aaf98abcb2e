package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import io.distlock.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Another database session, on a connection outside every pool, holding rows or a whole table locked in an open
 * transaction until it is closed: what a long report, a forgotten console session or a stuck application
 * transaction does to the lock table.
 */
public final class OutsideSession implements AutoCloseable {

    private final Connection connection;

    private boolean closed;

    private OutsideSession(Connection connection) {
        this.connection = connection;
    }

    /**
     * Opens a session and locks one row with {@code SELECT … FOR UPDATE}.
     *
     * @param database the database
     * @param table the lock table
     * @param resource the row's resource, which must exist
     * @return the session, holding the row lock
     */
    public static OutsideSession lockingRow(TestDatabase database, LockTableName table, String resource)
            throws SQLException {
        OutsideSession session = open(database);
        try (PreparedStatement statement = session.connection.prepareStatement(
                "SELECT owner FROM " + table + " WHERE resource = ? FOR UPDATE")) {
            statement.setString(1, resource);
            try (ResultSet rs = statement.executeQuery()) {
                assertThat(rs.next()).as("the row to lock exists").isTrue();
            }
        }
        catch (SQLException | RuntimeException ex) {
            session.close();
            throw ex;
        }
        return session;
    }

    /**
     * Opens a session and locks a whole table against reads and writes of other sessions.
     *
     * @param database the database
     * @param lockStatement the statement that locks it, such as {@code LOCK TABLE … IN ACCESS EXCLUSIVE MODE}
     * @return the session, holding the table lock
     */
    static OutsideSession lockingTable(TestDatabase database, String lockStatement) throws SQLException {
        OutsideSession session = open(database);
        try (Statement statement = session.connection.createStatement()) {
            statement.execute(lockStatement);
        }
        catch (SQLException | RuntimeException ex) {
            session.close();
            throw ex;
        }
        return session;
    }

    /**
     * Opens a session that only reads, and sees what other sessions committed.
     *
     * @param database the database
     * @return the session
     */
    static OutsideSession reading(TestDatabase database) throws SQLException {
        return open(database);
    }

    /**
     * Reads whether a lock table row exists, as this session sees it.
     *
     * @param table the lock table
     * @param resource the row's resource
     * @return whether the row is visible
     */
    boolean hasRow(LockTableName table, String resource) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT COUNT(*) FROM " + table + " WHERE resource = ?")) {
            statement.setString(1, resource);
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getInt(1) == 1;
            }
        }
        finally {
            connection.rollback();
        }
    }

    private static OutsideSession open(TestDatabase database) throws SQLException {
        database.assumeAvailable();
        Connection connection = DriverManager.getConnection(database.url(), database.user(), database.password());
        connection.setAutoCommit(false);
        return new OutsideSession(connection);
    }

    /**
     * Ends the transaction without changing anything, and with it every lock the session held.
     */
    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            connection.rollback();
        }
        finally {
            connection.close();
        }
    }
}
