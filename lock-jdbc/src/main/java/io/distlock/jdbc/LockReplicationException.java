package io.distlock.jdbc;

/**
 * The lock table's server cannot give what the repository's replication settings ask for: it is a standby, or its
 * commits would not wait for a synchronous standby while {@code require-synchronous-standby} demands it, or the
 * database cannot wait for a standby at all. The message names the setting, the database and what to change.
 */
public final class LockReplicationException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    LockReplicationException(String message) {
        super(message);
    }
}
