package io.distlock.jdbc;

import java.sql.SQLTransientConnectionException;
import java.time.Duration;

/**
 * A data source gave no connection for a lock statement within the statement timeout: the database is most likely
 * down or unreachable, or every connection of its pool is in use. Not a statement that ran out of time — nothing was
 * sent — so an acquire that meets it throws rather than answering "not acquired".
 */
final class ConnectionWaitTimeoutException extends SQLTransientConnectionException {

    private static final long serialVersionUID = 1L;

    ConnectionWaitTimeoutException(String dataSource, Duration timeout, Throwable cause) {
        super("No connection from " + dataSource + " within the statement timeout " + timeout + ": "
                + cause.getMessage(), "08001", cause);
    }
}
