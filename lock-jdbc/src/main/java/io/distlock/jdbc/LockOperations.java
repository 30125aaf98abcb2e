package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.distlock.core.LockRecord;
import io.distlock.core.LockResult;
import io.distlock.core.RenewResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.QueryTimeoutException;

/**
 * The lock operations on the lock table, one operation a method, each with arguments already checked: the statement
 * that decides it, run on a connection of its own, and the read that tells a refusal apart. Whether the dialect's
 * statements return the rows they changed, and whether releases notify, {@link LockStatements} decided once.
 */
final class LockOperations {

    private static final Logger logger = LoggerFactory.getLogger(LockOperations.class);

    private static final String ACQUIRE = "distributed lock acquire";

    static final String RENEW = "distributed lock renew";

    private static final String RELEASE = "distributed lock release";

    private static final String FORCE_RELEASE = "distributed lock forced release";

    private static final String DELETE_EXPIRED = "distributed lock deleteExpired";

    private final StatementExecutor executor;

    private final LockStatements statements;

    private final JdbcSlotStore slots;

    private final LockTableName table;

    LockOperations(StatementExecutor executor, LockStatements statements, JdbcSlotStore slots, LockTableName table) {
        this.executor = executor;
        this.statements = statements;
        this.slots = slots;
        this.table = table;
    }

    /**
     * Takes or renews a lock; a wait for a row lock that runs out of time answers "not acquired", the database having
     * rolled the statement back.
     */
    Optional<LockRecord> acquire(String resource, String owner, long ttlMillis) {
        long ttlNanos = TimeUnit.MILLISECONDS.toNanos(ttlMillis);
        TimedStatement acquire = statements.acquire;
        try {
            return executor.runAlone(ACQUIRE, acquire, connection -> {
                try {
                    long sentAt = System.nanoTime();
                    // Two first claims of a brand-new resource may race; the second run sees the winner's row.
                    Optional<LockRecord> acquired = executor.againOnDuplicateKey(connection, ACQUIRE, acquire,
                            c -> executor.queryOne(c, acquire, statements::record, resource, owner, ttlMillis))
                            .filter(record -> record.owner().equals(owner));
                    if (acquired.isPresent() && System.nanoTime() - sentAt >= ttlNanos) {
                        return stillLive(connection, acquired.get());
                    }
                    return acquired;
                }
                catch (UnreplicatedCommitException ex) {
                    giveBack(connection, resource, owner, ex);
                    return Optional.empty();
                }
                catch (SQLException ex) {
                    if (executor.isDuplicateKey(ACQUIRE, acquire, ex)) {
                        return Optional.empty();
                    }
                    throw ex;
                }
            });
        }
        catch (QueryTimeoutException ex) {
            // Rolled back by the database: most likely another session holds the row locked.
            logger.debug("Not acquired '{}' on {}: {}", resource, table, ex.getMessage());
            return Optional.empty();
        }
    }

    /**
     * After an acquisition whose commit did not reach the synchronous standby: not handed out, and the row given back
     * at once if it is still this acquisition's, by a release that waits for nothing. Should that fail, the row is
     * left to expire at its TTL, held by an owner nobody presents.
     */
    private void giveBack(Connection connection, String resource, String owner, UnreplicatedCommitException cause) {
        String row;
        try {
            row = executor.update(connection, statements.giveBack, resource, owner) == 1 ? "its row given back"
                    : "no row of it to give back";
        }
        catch (SQLException ex) {
            row = "its row, if any, left to expire at its TTL (" + ex.getMessage() + ")";
        }
        logger.warn("Not acquired '{}' on {}: the statement's commit stopped waiting for the synchronous standby "
                + "before the standby had it (statement timeout or cancel); {}", resource, table, row);
        logger.debug("The acquisition's warning", cause);
    }

    /**
     * After an acquire that took at least its TTL, most likely waiting for a row lock: a database whose clock stands
     * still within a statement (H2) computed the lease from the time before the wait, so it may be over already.
     * Hands it out only if it is still live by the database clock, and still this acquisition's.
     */
    private Optional<LockRecord> stillLive(Connection connection, LockRecord acquired) throws SQLException {
        return executor.queryOne(connection, statements.find, statements::record, acquired.resource())
                .filter(record -> record.owner().equals(acquired.owner()) && record.token() == acquired.token());
    }

    RenewResult renew(String resource, String owner, long ttlMillis) {
        return executor.runAlone(RENEW, statements.renew, connection -> {
            Optional<LockRecord> renewed = statements.renewReturnsRow
                    ? executor.queryOne(connection, statements.renew, statements::record, ttlMillis, resource, owner)
                    : renewThenRead(connection, resource, owner, ttlMillis);
            if (renewed.isPresent()) {
                return RenewResult.renewed(renewed.get());
            }
            return RenewResult.refused(refusal(connection, resource, owner) == LockResult.FORBIDDEN
                    ? LockResult.FORBIDDEN : LockResult.NOT_FOUND);
        });
    }

    private Optional<LockRecord> renewThenRead(Connection connection, String resource, String owner, long ttlMillis)
            throws SQLException {
        if (executor.update(connection, statements.renew, ttlMillis, resource, owner) == 0) {
            return Optional.empty();
        }
        return executor.queryOne(connection, statements.findOwned, statements::record, resource, owner);
    }

    /**
     * Gives a lock back. A durable release whose commit stopped waiting for the synchronous standby released the lock
     * on this server: applied, and if a failover loses it, the lock stays its owner's until its TTL.
     */
    LockResult release(String resource, String owner, long minHoldMillis) {
        return executor.runAlone(RELEASE, statements.release, connection -> {
            boolean released;
            try {
                released = statements.releaseNotifies
                        ? executor.queryOne(connection, statements.release, rs -> true, minHoldMillis, resource,
                                owner).isPresent()
                        : executor.update(connection, statements.release, minHoldMillis, resource, owner) == 1;
            }
            catch (UnreplicatedCommitException ex) {
                logger.debug("Released '{}' on {} without the synchronous standby: {}", resource, table,
                        ex.getMessage());
                return LockResult.APPLIED;
            }
            return released ? LockResult.APPLIED : refusal(connection, resource, owner);
        });
    }

    LockResult forceRelease(String resource, long token) {
        return executor.runAlone(FORCE_RELEASE, statements.forceRelease, connection -> {
            boolean released = statements.releaseNotifies
                    ? executor.queryOne(connection, statements.forceRelease, rs -> true, resource, token).isPresent()
                    : executor.update(connection, statements.forceRelease, resource, token) == 1;
            if (released) {
                return LockResult.APPLIED;
            }
            return executor.queryOne(connection, statements.liveToken, rs -> rs.getLong(1), resource)
                    .map(live -> LockResult.FORBIDDEN).orElse(LockResult.NOT_FOUND);
        });
    }

    /**
     * After an update that changed no row: tells "no live lock" from "another owner's live lock". A live lock of the
     * caller's own means the update matched but changed nothing (a minimum hold equal to the current expiry, with a
     * driver that counts changed rows, such as Connector/J with {@code useAffectedRows=true}): released.
     */
    private LockResult refusal(Connection connection, String resource, String owner) throws SQLException {
        return executor.queryOne(connection, statements.liveOwner, rs -> rs.getString(1), resource)
                .map(liveOwner -> liveOwner.equals(owner) ? LockResult.APPLIED : LockResult.FORBIDDEN)
                .orElse(LockResult.NOT_FOUND);
    }

    Optional<LockRecord> find(String resource) {
        return executor.runAlone("distributed lock find", statements.find,
                connection -> executor.queryOne(connection, statements.find, statements::record, resource));
    }

    List<LockRecord> findAll() {
        return executor.runAlone("distributed lock findAll", statements.findAll,
                connection -> executor.queryAll(connection, statements.findAll, statements::record));
    }

    /**
     * Deletes rows expired more than {@code retentionMillis} ago. Rows of scheduled jobs stay, since they carry the
     * job's last claimed slot, on a table that has the slot columns: the slot store decides that once.
     */
    int deleteExpired(long retentionMillis) {
        TimedStatement delete = slots.hasSlotColumns() ? statements.deleteExpiredKeepingJobs
                : statements.deleteExpired;
        int deleted = executor.runAlone(DELETE_EXPIRED, delete,
                connection -> executor.update(connection, delete, -retentionMillis));
        if (deleted > 0) {
            logger.debug("Deleted {} lock rows expired more than {} ms ago from {}", deleted, retentionMillis, table);
        }
        return deleted;
    }
}
