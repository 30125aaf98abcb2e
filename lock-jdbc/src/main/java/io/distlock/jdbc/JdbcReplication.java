package io.distlock.jdbc;

import org.jspecify.annotations.Nullable;

/**
 * Whether the commits of acquisitions and renewals wait for a standby, so that a failover to that standby keeps
 * them: the lock statements' sessions only, the application's own writes keep the server's setting. On PostgreSQL
 * this is the session's {@code synchronous_commit}, which waits only when the server names synchronous standbys
 * ({@code synchronous_standby_names}); other databases have no such setting per session.
 */
public enum JdbcReplication {

    /** The server's own setting, which on PostgreSQL is asynchronous by default: a failover can lose acquisitions. */
    ASYNC(null),

    /**
     * Each commit waits until a synchronous standby has flushed it ({@code synchronous_commit = on}): a promoted
     * standby holds every acquisition and renewal that was handed out, and every token drawn by them.
     */
    SYNCHRONOUS("on"),

    /**
     * As {@link #SYNCHRONOUS}, and waits until the standby has also applied it ({@code remote_apply}): reads on the
     * standby see the lock too. Promotion applies every flushed commit first, so this buys no more safety on a
     * failover; it costs a longer wait.
     */
    REMOTE_APPLY("remote_apply");

    private final @Nullable String synchronousCommit;

    JdbcReplication(@Nullable String synchronousCommit) {
        this.synchronousCommit = synchronousCommit;
    }

    /**
     * @return PostgreSQL's {@code synchronous_commit} level for the lock statements' sessions, or {@code null} to
     *     leave the session's own
     */
    public @Nullable String synchronousCommit() {
        return synchronousCommit;
    }
}
