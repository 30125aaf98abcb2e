package io.distlock.jdbc.dialect;

import java.sql.SQLException;

import org.jspecify.annotations.Nullable;

/**
 * Everything that differs between databases in running the lock table and the fencing table atomically, one
 * implementation per database: its statements (the acquire and fencing statements, how an {@code UPDATE} hands back
 * the rows it changed, the batch renewal, the notifying release) here, its clock ({@link DialectClock}), how its
 * statements are bounded in time and which of its errors are timeouts ({@link DialectSession}), whether their
 * commits can wait for a standby ({@link DialectReplication}), and its schema scripts and checks
 * ({@link DialectSchema}). Adding a database means implementing this interface and shipping its
 * schema scripts beside it in this package, and naming it in {@link LockDialects}: pass the implementation to
 * {@code JdbcLockRepository.Builder.dialect} and {@code FencingGuard.Builder.dialect}, or define it as a bean for the
 * Spring Boot starter.
 *
 * <p>Rows are read with the columns {@code resource, owner, token, acquired_at, expires_at} in that order
 * ({@link #COLUMNS}).
 */
public interface LockDialect extends DialectClock, DialectSession, DialectSchema, DialectReplication {

    /** The columns every statement that reads lock rows returns, in order. */
    String COLUMNS = "resource, owner, token, acquired_at, expires_at";

    /**
     * The database this dialect speaks to, for messages.
     *
     * @return a product name such as {@code PostgreSQL}
     */
    String name();

    /**
     * The acquire statement: one atomic decision that takes a free or expired lock, renews the caller's own, and
     * leaves another owner's live lock alone. A new owner's token is drawn from the sequence under the row lock, and
     * the times written on a conflict are computed from {@link #NOW_UNDER_LOCK}, so that a takeover's acquisition is
     * never before the previous holder's expiry and a lease is not already over when the statement returns it.
     * Parameters: resource, owner, TTL in milliseconds. Returns the row afterwards, or no row when not acquired;
     * callers compare the returned owner with their own.
     *
     * @param table the lock table's name
     * @param sequence the token sequence's name
     * @return the statement text
     */
    String acquire(String table, String sequence);

    /**
     * The fencing statement: one atomic decision, inside the writer's transaction, that inserts the fence row of a
     * protected resource when it is absent, raises its {@code last_token} to the writer's token when that is at least
     * as high, and otherwise leaves the row alone. The row stays locked until the transaction ends, and a statement
     * waiting for that lock decides on the row as the other transaction left it. Parameters: name, token. Returns the
     * row's {@code last_token} when the statement changed it, or the row's final state whatever the decision; the
     * write is admitted when a row comes back carrying the writer's token. Two first writes of a brand-new name may
     * collide on the primary key; the duplicate-key failure is retried once, which then sees the other row.
     *
     * @param table the fencing table's name
     * @return the statement text
     */
    String fencingAdmit(String table);

    /**
     * Turns an {@code UPDATE} of the lock table into a query returning the changed rows' {@link #COLUMNS}.
     *
     * @param update the update statement
     * @return the query, or {@code null} when the database cannot return updated rows
     */
    @Nullable
    String updateReturningRows(String update);

    /**
     * A condition that, added to the {@code WHERE} of a statement run alone in autocommit, lets that statement's
     * transaction commit without waiting for its commit record to reach durable storage, and is true whenever it is
     * evaluated. Only the release uses it, unless the repository is built with {@code durableRelease(true)}: a
     * release lost in a crash of the database leaves the lock held by its owner until its TTL, and any durable commit
     * after it, such as the next owner's acquire, makes it durable too.
     *
     * @return the condition; {@code null} (the default) when the database cannot choose so for one transaction
     */
    default @Nullable String commitWithoutFlushCondition() {
        return null;
    }

    /**
     * The batch renewal with the leases' resources and owners bound as two arrays of {@code text}
     * ({@link java.sql.Connection#createArrayOf}), for a database that parses and plans one pair of parameters per
     * lease markedly slower. The same decision as the renewal of each lease on its own: a lease is extended only when
     * it is live and its owner's. Parameters: TTL in milliseconds, the resources, the owners (same length, lease by
     * lease; no lease twice), the TTL in milliseconds. Returns the renewed rows' {@link #COLUMNS}. A row another
     * session holds locked is passed over, not waited for ({@code FOR UPDATE SKIP LOCKED}): it is missing from the
     * answer, and the watchdog renews that lease on its own.
     *
     * @param table the lock table's name
     * @return the statement text; {@code null} (the default) to bind a pair of parameters per lease
     */
    default @Nullable String renewAllByArrays(String table) {
        return null;
    }

    /**
     * Turns the release statement (an {@code UPDATE} of one row) into a query that also tells listeners of a
     * notification channel when it frees the lock, in the same statement, so that waiters in other processes need
     * not wait for their next poll; the notification must be delivered only if the statement commits. The query
     * returns one row per row the update changed; what the row holds does not matter. The repository listens with
     * pgjdbc's {@code PGConnection.getNotifications}, so a dialect answers a query only for a PostgreSQL-compatible
     * database reached through pgjdbc.
     *
     * @param release the release statement
     * @param channel the channel, letters, digits and underscores only
     * @return the query, or {@code null} (the default) when the database cannot notify
     */
    default @Nullable String notifyingRelease(String release, String channel) {
        return null;
    }

    /**
     * A batch renewal that gives up at once, rather than wait, when a row of the batch is held locked by another
     * session, for a database whose {@code UPDATE} cannot pass over such rows: the batch then locks the rows it can
     * with {@code SELECT … FOR UPDATE SKIP LOCKED} and renews those in a transaction. Without it, every batch takes
     * that way.
     *
     * @param update the batch renewal
     * @return the statement that fails at once on a locked row ({@link #isLockedRow}), or {@code null} (the default)
     */
    default @Nullable String failingOnLockedRows(String update) {
        return null;
    }

    /**
     * Whether a statement of {@link #failingOnLockedRows} failed on a row another session holds locked.
     *
     * @param ex the failure
     * @return {@code false} by default
     */
    default boolean isLockedRow(SQLException ex) {
        return false;
    }

    /**
     * Most leases renewed in one statement.
     *
     * @return the batch size
     */
    int maxRenewBatch();
}
