package io.distlock.jdbc;

import io.distlock.core.TimeSource;
import io.distlock.jdbc.dialect.LockDialect;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what the lock table's server says about its replication ({@link ReplicationStatus}), tells it in one line
 * when it first reads it and whenever it changes (a failover, a standby that went away), and refuses what cannot
 * keep the repository's replication settings: a server that is a standby, and, when a synchronous standby is
 * required, a server whose lock commits would not wait for one. When not required, what the setting cannot get is
 * told at WARN instead, naming the setting and the database: never silently ignored.
 */
final class ReplicationCheck {

    private static final Logger logger = LoggerFactory.getLogger(ReplicationCheck.class);

    private static final String TASK = "distributed lock replication check";

    private final StatementExecutor executor;

    private final LockDialect dialect;

    private final LockTableName table;

    private final JdbcReplication mode;

    private final boolean requireStandby;

    private final @Nullable TimedStatement query;

    /** The last line told, so that it is told again only when it changes. */
    private volatile @Nullable String told;

    ReplicationCheck(StatementExecutor executor, LockDialect dialect, LockTableName table, JdbcReplication mode,
            boolean requireStandby) {
        this.executor = executor;
        this.dialect = dialect;
        this.table = table;
        this.mode = mode;
        this.requireStandby = requireStandby;
        String sql = dialect.replicationQuery();
        this.query = sql != null ? TimedStatement.compile(executor.bound(sql), dialect, TimeSource.DATABASE) : null;
    }

    JdbcReplication mode() {
        return mode;
    }

    boolean requireStandby() {
        return requireStandby;
    }

    /**
     * Asks the server, on a connection prepared as the lock statements' are.
     *
     * @return what it said
     */
    ReplicationStatus read() {
        TimedStatement asked = query;
        if (asked == null) {
            return ReplicationStatus.unreadable(mode, dialect.name());
        }
        return executor.runAlone(TASK, asked, connection -> executor.queryOne(connection, asked,
                rs -> new ReplicationStatus(mode, dialect.name(), true, rs.getBoolean(1), rs.getString(2),
                        rs.getString(3), rs.getString(4), rs.getInt(5))))
                .orElseThrow();
    }

    /**
     * Reads the server's replication, tells it when it changed, and refuses what cannot keep the settings.
     *
     * @return what the server said
     * @throws LockReplicationException when the server is a standby, or a required synchronous standby is missing
     */
    ReplicationStatus verify() {
        ReplicationStatus status = read();
        String problem = status.problem(requireStandby);
        if (status.inRecovery()) {
            throw new LockReplicationException("Lock table " + table + ": " + status.summary() + ". Connect to the "
                    + "primary: with PostgreSQL's driver, list every server in the URL with targetServerType=primary "
                    + "(jdbc:postgresql://host1:5432,host2:5432/db?targetServerType=primary)");
        }
        if (problem != null && requireStandby) {
            throw new LockReplicationException("Lock table " + table + ": " + problem);
        }
        String line = "Lock table " + table + ": " + status.summary();
        if (!line.equals(told)) {
            told = line;
            if (problem != null) {
                logger.warn("{}; {}", line, problem);
            }
            else if (status.isWarning()) {
                logger.warn(line);
            }
            else {
                logger.info(line);
            }
        }
        return status;
    }
}
