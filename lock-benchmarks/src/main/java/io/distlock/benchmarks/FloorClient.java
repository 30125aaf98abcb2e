package io.distlock.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import javax.sql.DataSource;

import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.testsupport.TestDatabase;

/**
 * The floor: plain JDBC in autocommit, two prepared single-row {@code UPDATE}s per cycle on a pre-inserted row, each
 * on a connection borrowed from the same pool: one write to take the lock (when it is free, by the database clock),
 * one to give it back (when this node holds it). No insert path, no token, no result row: nothing correct with
 * durable state can be cheaper.
 */
final class FloorClient implements LockClient {

    private final DataSource dataSource;

    private final String owner;

    private final String take;

    private final String giveBack;

    FloorClient(TestDatabase db, DataSource dataSource, String owner) {
        this.dataSource = dataSource;
        this.owner = owner;
        LockDialect dialect = db.dialect();
        String now = dialect.currentTimeExpression();
        this.take = "UPDATE " + BenchSchema.FLOOR_TABLE + " SET owner = ?, expires_at = " + dialect.plusMillis(now, "?")
                + " WHERE resource = ? AND expires_at <= " + now;
        this.giveBack = "UPDATE " + BenchSchema.FLOOR_TABLE + " SET expires_at = " + now
                + " WHERE resource = ? AND owner = ?";
    }

    @Override
    public boolean cycle(String resource) {
        try {
            if (update(take, owner, TTL.toMillis(), resource) == 0) {
                return false;
            }
            if (update(giveBack, resource, owner) != 1) {
                throw new IllegalStateException("floor give-back of '" + resource + "' changed no row");
            }
            return true;
        }
        catch (SQLException ex) {
            throw new IllegalStateException("floor cycle on '" + resource + "' failed", ex);
        }
    }

    private int update(String sql, Object... args) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                statement.setObject(i + 1, args[i]);
            }
            return statement.executeUpdate();
        }
    }
}
