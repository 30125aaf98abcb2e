package io.distlock.jdbc.dialect;

import java.sql.SQLWarning;

import org.jspecify.annotations.Nullable;

/**
 * Whether and how the lock statements' commits can wait for a standby, as a dialect says it: the session setting
 * that makes a commit wait ({@link #synchronousCommitQuery()}), the query that tells what the server's replication
 * is ({@link #replicationQuery()}), and the warning with which a commit whose wait was cancelled reports success
 * ({@link #isUnreplicatedCommit}). Databases without such a setting per session keep every default. Part of a
 * {@link LockDialect}.
 */
public interface DialectReplication {

    /**
     * A query of the session's setting that decides whether a commit waits for a standby, for a database that lets
     * each session choose. The repository sets it with {@link #synchronousCommitStatement} for its own statements and
     * sets it back afterwards.
     *
     * @return the query, answering one row with one text; {@code null} (the default) when the database has no such
     *     setting per session
     */
    default @Nullable String synchronousCommitQuery() {
        return null;
    }

    /**
     * Sets the session's synchronous commit level; used only with {@link #synchronousCommitQuery()}.
     *
     * @param level a level as {@link #synchronousCommitQuery()} answers it, such as {@code on}
     * @return the statement text
     */
    default String synchronousCommitStatement(String level) {
        throw new UnsupportedOperationException("no synchronous commit per session");
    }

    /**
     * A query of the server's replication, for start-up and health: one row of the columns {@code in_recovery}
     * (boolean: the server is a standby), {@code synchronous_standby_names} (text, empty for none),
     * {@code synchronous_commit} (the session's level), {@code standbys} (text describing each standby connected, or
     * empty) and {@code synchronous_standbys} (the number of those whose commits wait for them).
     *
     * @return the query, or {@code null} (the default) when the database has none the repository reads
     */
    default @Nullable String replicationQuery() {
        return null;
    }

    /**
     * Whether a warning of a statement that succeeded says that its commit stopped waiting for a standby before the
     * standby had it: committed on this server only, and lost if a standby that lacks it is promoted.
     *
     * @param warning a warning of the statement, one of its chain
     * @return {@code false} by default
     */
    default boolean isUnreplicatedCommit(SQLWarning warning) {
        return false;
    }
}
