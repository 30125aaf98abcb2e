package io.distlock.core.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

import io.distlock.core.jdbc.dialect.LockDialect;
import org.jspecify.annotations.Nullable;

/**
 * The session settings of pooled connections that lock statements depend on, read once per physical connection and
 * remembered: how long the session waits for a row lock, where the dialect bounds waits that way. Before lock
 * statements run, {@link #prepare} changes what must change, and {@link #restore} puts it back, so the application
 * gets its connections back as they were. A connection whose settings need no change costs no statement.
 */
final class SessionSettings {

    private final LockDialect dialect;

    /** The longest wait for a row lock the statement timeout allows, in milliseconds, or 0 when not bounded here. */
    private final long lockWaitMillis;

    private final @Nullable String lockWaitQuery;

    /** What each physical connection's session was set to when first seen; weak, so closed connections go. */
    private final Map<Connection, Seen> seen = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * Creates the settings for one repository.
     *
     * @param dialect the database's dialect
     * @param lockWaitMillis the longest wait for a row lock, in milliseconds, or 0 for none
     */
    SessionSettings(LockDialect dialect, long lockWaitMillis) {
        this.dialect = dialect;
        this.lockWaitQuery = lockWaitMillis > 0 ? dialect.lockWaitTimeoutQuery() : null;
        this.lockWaitMillis = lockWaitQuery != null ? lockWaitMillis : 0;
    }

    /**
     * Adjusts a connection for lock statements.
     *
     * @param connection a connection of the repository's own, in autocommit
     * @return what to give back to {@link #restore} afterwards
     * @throws SQLException when a setting cannot be read or changed
     */
    Changes prepare(Connection connection) throws SQLException {
        if (lockWaitQuery == null) {
            return Changes.NONE;
        }
        Seen session = seen(connection);
        if (session.lockWaitMillis() <= lockWaitMillis) {
            return Changes.NONE;
        }
        execute(connection, dialect.lockWaitTimeoutStatement(lockWaitMillis));
        return new Changes(session.lockWaitMillis());
    }

    /**
     * Puts back what {@link #prepare} changed.
     *
     * @param connection the connection prepared
     * @param changes what {@link #prepare} answered
     * @throws SQLException when a setting cannot be changed back
     */
    void restore(Connection connection, Changes changes) throws SQLException {
        if (changes.lockWaitMillis() >= 0) {
            execute(connection, dialect.lockWaitTimeoutStatement(changes.lockWaitMillis()));
        }
    }

    private Seen seen(Connection connection) throws SQLException {
        Connection physical = physical(connection);
        Seen session = seen.get(physical);
        if (session == null) {
            session = new Seen(readLockWait(connection));
            seen.put(physical, session);
        }
        return session;
    }

    private long readLockWait(Connection connection) throws SQLException {
        if (lockWaitQuery == null) {
            return -1;
        }
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(lockWaitQuery)) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /**
     * The driver's connection behind a pool's handle, which pools such as HikariCP hand out anew for every checkout:
     * what the settings are remembered by.
     */
    static Connection physical(Connection connection) {
        try {
            Connection unwrapped = connection.unwrap(Connection.class);
            return unwrapped != null ? unwrapped : connection;
        }
        catch (SQLException | RuntimeException ex) {
            return connection;
        }
    }

    /** A session's settings when first seen. */
    private record Seen(long lockWaitMillis) {
    }

    /**
     * What {@link #prepare} changed.
     *
     * @param lockWaitMillis the row-lock wait to set back, or -1 when unchanged
     */
    record Changes(long lockWaitMillis) {

        static final Changes NONE = new Changes(-1);
    }
}
