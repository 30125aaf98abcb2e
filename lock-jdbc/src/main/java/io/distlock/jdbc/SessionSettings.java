package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

import io.distlock.jdbc.dialect.LockDialect;
import org.jspecify.annotations.Nullable;

/**
 * The session settings of pooled connections that lock statements depend on, read once per physical connection and
 * remembered (some drivers, such as PostgreSQL's, ask the server for the isolation level): the transaction isolation
 * level, how long the session waits for a row lock where the dialect bounds waits that way, and whether commits
 * wait for a standby where the repository asks for it ({@link JdbcReplication}). Before lock statements run,
 * {@link #prepare} changes what must change — {@code READ COMMITTED} on a connection whose level the dialect does
 * not keep its guarantees at, a shorter lock wait, a synchronous commit — and {@link #restore} puts it back, so the
 * application gets its connections back as they were. A connection whose settings need no change costs no statement.
 */
final class SessionSettings {

    private final LockDialect dialect;

    /** The longest wait for a row lock the statement timeout allows, in milliseconds, or 0 when not bounded here. */
    private final long lockWaitMillis;

    private final @Nullable String lockWaitQuery;

    /** The synchronous commit level the lock statements need, or {@code null} to leave the session's own. */
    private final @Nullable String synchronousCommit;

    /** What each physical connection's session was set to when first seen; weak, so closed connections go. */
    private final Map<Connection, Seen> seen = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * Creates the settings for one repository.
     *
     * @param dialect the database's dialect
     * @param lockWaitMillis the longest wait for a row lock, in milliseconds, or 0 for none
     * @param replication whether commits wait for a standby; anything but {@link JdbcReplication#ASYNC} needs a
     *     dialect with {@link LockDialect#synchronousCommitQuery()}
     */
    SessionSettings(LockDialect dialect, long lockWaitMillis, JdbcReplication replication) {
        this.dialect = dialect;
        this.synchronousCommit = dialect.synchronousCommitQuery() != null ? replication.synchronousCommit() : null;
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
        Seen session = seen(connection);
        boolean shortenWait = lockWaitQuery != null && session.lockWaitMillis() > lockWaitMillis;
        boolean readCommitted = !dialect.keepsGuaranteesAt(session.isolation());
        boolean synchronous = synchronousCommit != null && !synchronousCommit.equals(session.synchronousCommit());
        if (!shortenWait && !readCommitted && !synchronous) {
            return Changes.NONE;
        }
        Changes changes = new Changes(shortenWait ? session.lockWaitMillis() : -1,
                readCommitted ? session.isolation() : -1, synchronous ? session.synchronousCommit() : null);
        if (readCommitted) {
            connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        }
        Changes done = new Changes(-1, changes.isolation(), null);
        try {
            if (shortenWait) {
                execute(connection, dialect.lockWaitTimeoutStatement(lockWaitMillis));
                done = new Changes(changes.lockWaitMillis(), changes.isolation(), null);
            }
            if (synchronous) {
                execute(connection, dialect.synchronousCommitStatement(synchronousCommit));
            }
        }
        catch (SQLException | RuntimeException ex) {
            restore(connection, done);
            throw ex;
        }
        return changes;
    }

    /**
     * Puts back what {@link #prepare} changed.
     *
     * @param connection the connection prepared
     * @param changes what {@link #prepare} answered
     * @throws SQLException when a setting cannot be changed back
     */
    void restore(Connection connection, Changes changes) throws SQLException {
        try {
            if (changes.synchronousCommit() != null) {
                execute(connection, dialect.synchronousCommitStatement(changes.synchronousCommit()));
            }
            if (changes.lockWaitMillis() >= 0) {
                execute(connection, dialect.lockWaitTimeoutStatement(changes.lockWaitMillis()));
            }
        }
        finally {
            if (changes.isolation() >= 0) {
                connection.setTransactionIsolation(changes.isolation());
            }
        }
    }

    /**
     * Forgets what a connection's session was set to, to be read again at its next use: after a serialization
     * failure, which suggests its isolation level changed since it was first seen.
     *
     * @param connection the connection
     */
    void forget(Connection connection) {
        seen.remove(physical(connection));
    }

    private Seen seen(Connection connection) throws SQLException {
        Connection physical = physical(connection);
        Seen session = seen.get(physical);
        if (session == null) {
            session = new Seen(readLockWait(connection), connection.getTransactionIsolation(),
                    readSynchronousCommit(connection));
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

    private @Nullable String readSynchronousCommit(Connection connection) throws SQLException {
        String query = synchronousCommit != null ? dialect.synchronousCommitQuery() : null;
        if (query == null) {
            return null;
        }
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(query)) {
            return rs.next() ? rs.getString(1) : null;
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
    private record Seen(long lockWaitMillis, int isolation, @Nullable String synchronousCommit) {
    }

    /**
     * What {@link #prepare} changed.
     *
     * @param lockWaitMillis the row-lock wait to set back, or -1 when unchanged
     * @param isolation the isolation level to set back, or -1 when unchanged
     * @param synchronousCommit the synchronous commit level to set back, or {@code null} when unchanged
     */
    record Changes(long lockWaitMillis, int isolation, @Nullable String synchronousCommit) {

        static final Changes NONE = new Changes(-1, -1, null);
    }
}
