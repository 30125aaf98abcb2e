package io.distlock.jdbc;

import java.sql.SQLException;
import java.sql.SQLWarning;

/**
 * A lock statement that succeeded, but whose commit stopped waiting for a synchronous standby before the standby had
 * it (PostgreSQL: a cancel, such as the statement timeout's, during the wait): committed on this server only, so a
 * failover to that standby loses it. An acquisition or renewal so committed is never handed out
 * ({@link LockOperations}).
 */
final class UnreplicatedCommitException extends SQLException {

    private static final long serialVersionUID = 1L;

    UnreplicatedCommitException(SQLWarning warning) {
        super("The commit stopped waiting for the synchronous standby before the standby confirmed it: committed on "
                + "this server only, and lost if a standby without it is promoted (" + warning.getMessage() + ")",
                warning.getSQLState(), warning);
    }
}
