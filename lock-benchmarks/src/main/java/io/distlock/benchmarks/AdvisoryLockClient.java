package io.distlock.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import javax.sql.DataSource;

/**
 * PostgreSQL's session advisory lock: {@code pg_try_advisory_lock} then {@code pg_advisory_unlock} on one borrowed
 * connection. It keeps no durable state and dies with its session, so it is a reference point, not a peer.
 */
final class AdvisoryLockClient implements LockClient {

    private final DataSource dataSource;

    AdvisoryLockClient(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public boolean cycle(String resource) {
        long key = resource.hashCode();
        try (Connection connection = dataSource.getConnection()) {
            if (!call(connection, "SELECT pg_try_advisory_lock(?)", key)) {
                return false;
            }
            if (!call(connection, "SELECT pg_advisory_unlock(?)", key)) {
                throw new IllegalStateException("pg_advisory_unlock of '" + resource + "' answered false");
            }
            return true;
        }
        catch (SQLException ex) {
            throw new IllegalStateException("advisory cycle on '" + resource + "' failed", ex);
        }
    }

    private static boolean call(Connection connection, String sql, long key) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, key);
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }
}
