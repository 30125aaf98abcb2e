package io.distlock.core.jdbc;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.distlock.core.TimeSource;
import io.distlock.core.jdbc.dialect.LockDialect;

/**
 * Every statement of the lock table, written once per repository for its table, dialect and time source. Each
 * decision's {@code WHERE} carries its whole condition: live ({@code expires_at > now}), and owned where ownership
 * matters. {@code {now}} is the dialect's clock, or a parameter in application-time mode.
 */
final class LockStatements {

    private static final String NOW = LockDialect.NOW;

    private static final String COLUMNS = LockDialect.COLUMNS;

    private final LockDialect dialect;

    private final LockTableName table;

    private final TimeSource timeSource;

    /** Takes a free or expired lock, or renews the caller's own; parameters resource, owner, TTL ms. */
    final TimedStatement acquire;

    /** Extends a live owned lease; parameters TTL ms, resource, owner. A query when {@link #renewReturnsRow}. */
    final TimedStatement renew;

    /** Whether {@link #renew} and the batch renewals return the changed rows. */
    final boolean renewReturnsRow;

    /** Expires a live owned lease at the later of now and acquisition plus minimum hold; parameters hold ms,
     *  resource, owner. */
    final TimedStatement release;

    /** The live lock of a resource. */
    final TimedStatement find;

    /** The row of a resource and owner, live or not: read after an update that cannot return rows. */
    final TimedStatement findOwned;

    /** Every live lock. */
    final TimedStatement findAll;

    /** The owner of a resource's row and whether it is live: tells refusals apart. */
    final TimedStatement state;

    /** Deletes rows expired before now plus a (negative) number of milliseconds. */
    final TimedStatement deleteExpired;

    private final Map<Integer, TimedStatement> renewAllBySize = new ConcurrentHashMap<>();

    private final Map<Integer, TimedStatement> findAllOwnedBySize = new ConcurrentHashMap<>();

    LockStatements(LockDialect dialect, LockTableName table, TimeSource timeSource) {
        this.dialect = dialect;
        this.table = table;
        this.timeSource = timeSource;
        this.acquire = compile(dialect.acquire(table.value(), table.sequence()));
        String renewUpdate = "UPDATE %s SET expires_at = %s WHERE resource = ? AND owner = ? AND expires_at > %s"
                .formatted(table, dialect.plusMillis(NOW, "?"), NOW);
        String renewQuery = dialect.updateReturningRows(renewUpdate);
        this.renewReturnsRow = renewQuery != null;
        this.renew = compile(renewQuery != null ? renewQuery : renewUpdate);
        this.release = compile("""
                UPDATE %s SET expires_at = GREATEST(%s, %s)
                WHERE resource = ? AND owner = ? AND expires_at > %s"""
                .formatted(table, NOW, dialect.plusMillis("acquired_at", "?"), NOW));
        this.find = compile("SELECT %s FROM %s WHERE resource = ? AND expires_at > %s".formatted(COLUMNS, table, NOW));
        this.findOwned = compile("SELECT %s FROM %s WHERE resource = ? AND owner = ?".formatted(COLUMNS, table));
        this.findAll = compile("SELECT %s FROM %s WHERE expires_at > %s ORDER BY resource"
                .formatted(COLUMNS, table, NOW));
        this.state = compile("SELECT owner, CASE WHEN expires_at > %s THEN 1 ELSE 0 END FROM %s WHERE resource = ?"
                .formatted(NOW, table));
        this.deleteExpired = compile("DELETE FROM %s WHERE expires_at < %s"
                .formatted(table, dialect.plusMillis(NOW, "?")));
    }

    /**
     * Renews {@code size} live owned leases; parameters TTL ms, then resource and owner of each.
     */
    TimedStatement renewAll(int size) {
        return renewAllBySize.computeIfAbsent(size, n -> {
            String update = "UPDATE %s SET expires_at = %s WHERE (resource, owner) IN (%s) AND expires_at > %s"
                    .formatted(table, dialect.plusMillis(NOW, "?"), parameterPairs(n), NOW);
            String query = dialect.updateReturningRows(update);
            return compile(query != null ? query : update);
        });
    }

    /**
     * The live rows of {@code size} resource and owner pairs: read after a batch renewal that cannot return rows.
     */
    TimedStatement findAllOwned(int size) {
        return findAllOwnedBySize.computeIfAbsent(size, n -> compile(
                "SELECT %s FROM %s WHERE (resource, owner) IN (%s) AND expires_at > %s"
                        .formatted(COLUMNS, table, parameterPairs(n), NOW)));
    }

    private TimedStatement compile(String template) {
        return TimedStatement.compile(template, dialect, timeSource);
    }

    private static String parameterPairs(int count) {
        StringBuilder sql = new StringBuilder(count * 8);
        for (int i = 0; i < count; i++) {
            sql.append(i == 0 ? "(?, ?)" : ", (?, ?)");
        }
        return sql.toString();
    }
}
