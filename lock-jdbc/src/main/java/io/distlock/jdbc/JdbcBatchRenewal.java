package io.distlock.jdbc;

import java.sql.Array;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import io.distlock.core.LeaseKey;
import io.distlock.core.LockRecord;
import io.distlock.jdbc.dialect.LockDialect;

/**
 * The watchdog's batch renewal on the lock table, in batches of the dialect's size, on the connection reserved for
 * renewals ({@link RenewalConnection}). How a batch is renewed is decided once, by what the dialect can: two arrays
 * bound as two parameters ({@link LockDialect#renewAllByArrays}, PostgreSQL), or a pair of parameters per lease,
 * passing over a row another session holds locked (giving up at once on one first where the dialect can, MariaDB).
 */
final class JdbcBatchRenewal {

    private final StatementExecutor executor;

    private final LockStatements statements;

    private final LockDialect dialect;

    private final RenewalConnection renewals;

    private final Batch batch;

    JdbcBatchRenewal(StatementExecutor executor, LockStatements statements, LockDialect dialect,
            RenewalConnection renewals) {
        this.executor = executor;
        this.statements = statements;
        this.dialect = dialect;
        this.renewals = renewals;
        TimedStatement byArrays = statements.renewAllByArrays;
        this.batch = byArrays != null ? (chunk, ttlMillis) -> renewByArrays(byArrays, chunk, ttlMillis)
                : (chunk, ttlMillis) -> renewals.run(LockOperations.RENEW, statements.renewAll(chunk.size()),
                        connection -> renewPassingOverLockedRows(connection, chunk, ttlMillis));
    }

    /**
     * Renews every live lease among {@code leases}, each once.
     *
     * @param leases the acquisitions, checked
     * @param ttlMillis the new lease length
     * @return the renewed leases' records; a lease missing was not renewed
     */
    Map<LeaseKey, LockRecord> renewAll(Collection<LeaseKey> leases, long ttlMillis) {
        List<LeaseKey> keys = new ArrayList<>(new LinkedHashSet<>(leases));
        Map<LeaseKey, LockRecord> renewed = new LinkedHashMap<>();
        int size = dialect.maxRenewBatch();
        for (int from = 0; from < keys.size(); from += size) {
            for (LockRecord record : batch.renew(keys.subList(from, Math.min(keys.size(), from + size)), ttlMillis)) {
                renewed.put(record.key(), record);
            }
        }
        return renewed;
    }

    /**
     * Renews a batch without waiting for a row another session holds locked, so that one stuck row holds up neither
     * the batch nor, through the rows the batch would keep locked while it waits, the releases of the other leases:
     * where the dialect can, the batch gives up at once on such a row; then, or where it cannot, the free rows are
     * locked first ({@code FOR UPDATE SKIP LOCKED}) and renewed in a transaction. A lease passed over is missing from
     * the answer; the watchdog renews it on its own.
     */
    private List<LockRecord> renewPassingOverLockedRows(Connection connection, List<LeaseKey> chunk, long ttlMillis)
            throws SQLException {
        TimedStatement failing = statements.renewAllFailingOnLockedRows(chunk.size());
        if (failing != null) {
            try {
                return renewChunk(connection, failing, chunk, ttlMillis);
            }
            catch (SQLException ex) {
                if (!dialect.isLockedRow(ex)) {
                    throw ex;
                }
            }
        }
        return OwnConnection.inTransaction(connection, () -> {
            List<LeaseKey> free = lockFree(connection, chunk);
            return free.isEmpty() ? List.of()
                    : renewChunk(connection, statements.renewAll(free.size()), free, ttlMillis);
        });
    }

    private List<LockRecord> renewChunk(Connection connection, TimedStatement statement, List<LeaseKey> chunk,
            long ttlMillis) throws SQLException {
        Object[] args = LockStatements.renewAllArguments(ttlMillis, chunk);
        if (statements.renewReturnsRow) {
            return executor.queryAll(connection, statement, statements::record, args);
        }
        executor.update(connection, statement, args);
        return executor.queryAll(connection, statements.findAllOwned(chunk.size()), statements::record,
                LockStatements.pairs(chunk));
    }

    /** Locks the live rows of a batch that no other session holds locked, in the transaction in progress. */
    private List<LeaseKey> lockFree(Connection connection, List<LeaseKey> chunk) throws SQLException {
        return executor.queryAll(connection, statements.lockFree(chunk.size()),
                rs -> new LeaseKey(rs.getString(1), rs.getString(2)), LockStatements.pairs(chunk));
    }

    private List<LockRecord> renewByArrays(TimedStatement statement, List<LeaseKey> chunk, long ttlMillis) {
        String[] resources = chunk.stream().map(LeaseKey::resource).toArray(String[]::new);
        String[] owners = chunk.stream().map(LeaseKey::owner).toArray(String[]::new);
        return renewals.run(LockOperations.RENEW, statement, connection -> {
            Array resourceArray = connection.createArrayOf("text", resources);
            Array ownerArray = connection.createArrayOf("text", owners);
            try {
                return executor.queryAll(connection, statement, statements::record, resourceArray, ownerArray,
                        ttlMillis);
            }
            finally {
                resourceArray.free();
                ownerArray.free();
            }
        });
    }

    /** How one batch is renewed. */
    @FunctionalInterface
    private interface Batch {

        List<LockRecord> renew(List<LeaseKey> chunk, long ttlMillis);
    }
}
