package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.jdbc.datasource.ConnectionProxy;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Where lock statements take connections of their own, outside any transaction of the caller, whatever wraps the
 * data source they are given.
 *
 * <p>A {@link TransactionAwareDataSourceProxy} hands out the connection of the Spring-managed transaction in
 * progress; running a lock statement on it would commit the caller's pending work (when switched to autocommit) or
 * join the caller's transaction (so that its rollback erases the lock). So connections come from behind the deepest
 * such proxy, found through every {@link DelegatingDataSource} in the chain ({@link
 * org.springframework.jdbc.datasource.LazyConnectionDataSourceProxy}, decorators of the application's own) and
 * through wrappers of other libraries that expose the Spring layers beneath them with {@link DataSource#unwrap}.
 * Wrappers outside the proxies, and every wrapper of a data source without one, stay in use.
 *
 * <p>A wrapper that hides a transaction-aware layer can still hand out a transaction's connection, so every
 * connection is checked before use: one in manual-commit mode, or one that a Spring transaction synchronization on
 * this thread holds, is given back untouched, and the call fails naming the data source.
 */
final class OwnConnections {

    /** Deeper chains are taken for cycles. */
    private static final int MAX_DEPTH = 32;

    private final DataSource given;

    private final DataSource source;

    /**
     * Finds where to take connections of their own.
     *
     * @param given the data source the repository was given
     * @throws IllegalArgumentException when a transaction-aware proxy is in the chain but cannot be reached behind
     */
    OwnConnections(DataSource given) {
        this.given = given;
        this.source = behindTransactionAwareProxies(given);
    }

    /**
     * The data source connections are taken from.
     *
     * @return the given data source, or the target behind its deepest transaction-aware proxy
     */
    DataSource source() {
        return source;
    }

    /**
     * Takes a connection of its own, in autocommit and in no Spring-managed transaction, waiting for the data source
     * at most the given time: a pool's own timeout (HikariCP's {@code connectionTimeout}, 30 seconds by default) is the
     * application's, not the lock statements' bound. The wait is bounded by interrupting it, which pools answer by
     * giving up; a data source that opens a connection in the calling thread (no pool) is bounded by its driver's
     * connect timeout instead.
     *
     * @param timeoutNanos how long to wait for the data source at most, or 0 for its own timeout
     * @return the connection
     * @throws SQLException when the data source cannot give one
     * @throws ConnectionWaitTimeoutException when it gave none within the time
     * @throws InvalidDataAccessApiUsageException when it hands out a connection in manual-commit mode, or one a
     *     Spring-managed transaction holds; the connection is given back untouched
     */
    Connection take(long timeoutNanos) throws SQLException {
        Connection connection = checkout(timeoutNanos);
        try {
            if (!connection.getAutoCommit()) {
                throw new InvalidDataAccessApiUsageException("Lock statements need a connection of their own in "
                        + "autocommit, but " + describe() + " handed out one with autocommit off: a pool configured "
                        + "with autoCommit=false, or a wrapper that hands out the connection of a transaction in "
                        + "progress. Lock statements on it would commit, or roll back, with that transaction. Give "
                        + "the lock repository a data source whose connections come in autocommit (for HikariCP "
                        + "autoCommit=true, the default), such as the pool itself or a pool of its own");
            }
            Object holder = transactionHolding(connection);
            if (holder != null) {
                throw new InvalidDataAccessApiUsageException("Lock statements need a connection of their own, but "
                        + describe() + " handed out the connection that the Spring-managed transaction scope on "
                        + holder + " holds on this thread: the lock statements would share the caller's connection. "
                        + "Give the lock repository the pool itself, or a wrapper that lets DataSource.unwrap "
                        + "reach the TransactionAwareDataSourceProxy inside it");
            }
            return connection;
        }
        catch (SQLException | RuntimeException ex) {
            connection.close();
            throw ex;
        }
    }

    private Connection checkout(long timeoutNanos) throws SQLException {
        if (timeoutNanos <= 0) {
            return source.getConnection();
        }
        StatementCanceller.Checkout watch = StatementCanceller.watchCheckout(timeoutNanos);
        Connection connection;
        try {
            connection = source.getConnection();
        }
        catch (SQLException | RuntimeException ex) {
            if (StatementCanceller.endCheckout(watch)) {
                throw new ConnectionWaitTimeoutException(describe(), Duration.ofNanos(timeoutNanos), ex);
            }
            throw ex;
        }
        // A connection that came just as the deadline passed is kept: the wait is over either way.
        StatementCanceller.endCheckout(watch);
        return connection;
    }

    /**
     * Names the data source connections come from, for messages.
     *
     * @return its description, with the data source given when that differs
     */
    String describe() {
        return "data source " + source + (source == given ? "" : " (behind " + given + ")");
    }

    static DataSource behindTransactionAwareProxies(DataSource dataSource) {
        DataSource current = dataSource;
        DataSource own = dataSource;
        for (int depth = 0; depth < MAX_DEPTH; depth++) {
            DelegatingDataSource layer = springLayer(current);
            if (layer == null) {
                break;
            }
            DataSource next = layer.getTargetDataSource();
            if (next == null) {
                if (layer instanceof TransactionAwareDataSourceProxy) {
                    throw new IllegalArgumentException("Lock repository data source " + dataSource + " wraps a "
                            + "TransactionAwareDataSourceProxy without a target data source");
                }
                break;
            }
            if (layer instanceof TransactionAwareDataSourceProxy) {
                own = next;
            }
            current = next;
        }
        if (isWrapperFor(own, TransactionAwareDataSourceProxy.class)) {
            throw new IllegalArgumentException("Lock repository data source " + dataSource + " wraps a "
                    + "TransactionAwareDataSourceProxy that DataSource.unwrap cannot reach: lock statements would run "
                    + "on the caller's transactional connection. Give the lock repository the pool itself");
        }
        return own;
    }

    /** The Spring layer a data source is or exposes through {@link DataSource#unwrap}, if any. */
    private static @Nullable DelegatingDataSource springLayer(DataSource dataSource) {
        if (dataSource instanceof DelegatingDataSource layer) {
            return layer;
        }
        if (!isWrapperFor(dataSource, DelegatingDataSource.class)) {
            return null;
        }
        try {
            return dataSource.unwrap(DelegatingDataSource.class);
        }
        catch (SQLException | RuntimeException ex) {
            return null;
        }
    }

    private static boolean isWrapperFor(DataSource dataSource, Class<?> type) {
        try {
            return dataSource.isWrapperFor(type);
        }
        catch (SQLException | RuntimeException ex) {
            return false;
        }
    }

    /**
     * The resource key of the Spring transaction scope on this thread that holds this connection, or of one of the
     * connections it wraps.
     */
    static @Nullable Object transactionHolding(Connection connection) {
        Map<Object, Object> resources = TransactionSynchronizationManager.getResourceMap();
        if (resources.isEmpty()) {
            return null;
        }
        List<Connection> wrapped = wrapped(connection);
        for (Map.Entry<Object, Object> resource : resources.entrySet()) {
            if (resource.getValue() instanceof ConnectionHolder holder && holder.getConnectionHandle() != null) {
                Connection held = holder.getConnection();
                for (Connection candidate : wrapped) {
                    if (candidate == held) {
                        return resource.getKey();
                    }
                }
            }
        }
        return null;
    }

    /** A connection and the connections it wraps, through Spring's connection proxies. */
    private static List<Connection> wrapped(Connection connection) {
        List<Connection> chain = new ArrayList<>(4);
        Connection current = connection;
        for (int depth = 0; depth < MAX_DEPTH; depth++) {
            chain.add(current);
            Connection next = null;
            try {
                if (current instanceof ConnectionProxy proxy) {
                    next = proxy.getTargetConnection();
                }
                else if (current.isWrapperFor(ConnectionProxy.class)) {
                    next = current.unwrap(ConnectionProxy.class);
                }
            }
            catch (SQLException | RuntimeException ex) {
                break;
            }
            if (next == null || next == current) {
                break;
            }
            current = next;
        }
        return chain;
    }
}
