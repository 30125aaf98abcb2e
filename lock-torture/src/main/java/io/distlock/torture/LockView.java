package io.distlock.torture;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import javax.sql.DataSource;

import io.distlock.core.LockRecord;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.redis.RedisLockRepository;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The controller's view of the workers' locks, read straight from the store: which locks are held, by whom, since
 * when, on the store's own clock.
 */
interface LockView {

    /** The unexpired locks. */
    List<LockRow> live() throws SQLException;

    /** Every lock the store still has, expired ones included where it keeps them. */
    List<LockRow> all() throws SQLException;

    /** The store's clock, which decides expiry and stamps {@link LockRow#acquiredAt()}. */
    Instant now() throws SQLException;

    /** A lock; the owner starts with the worker's name, {@code w<slot>-<pid>:}. */
    record LockRow(String resource, String owner, long token, Instant acquiredAt) {

        /** @return the holder's process id, or -1 when the owner is not a worker's */
        long pid() {
            int colon = owner.indexOf(':');
            int dash = owner.lastIndexOf('-', colon);
            try {
                return colon > 0 && dash > 0 ? Long.parseLong(owner.substring(dash + 1, colon)) : -1;
            }
            catch (NumberFormatException ex) {
                return -1;
            }
        }
    }

    /** The lock table, read with plain SQL on the controller's pool. */
    static LockView jdbc(DataSource dataSource, LockDialect dialect, String table) {
        return new LockView() {

            @Override
            public List<LockRow> live() throws SQLException {
                return rows(" WHERE expires_at > " + dialect.currentTimeExpression());
            }

            @Override
            public List<LockRow> all() throws SQLException {
                return rows("");
            }

            @Override
            public Instant now() throws SQLException {
                try (Connection connection = dataSource.getConnection();
                        PreparedStatement statement = connection.prepareStatement(
                                "SELECT " + dialect.currentTimeExpression());
                        ResultSet rs = statement.executeQuery()) {
                    rs.next();
                    return dialect.readInstant(rs, 1);
                }
            }

            private List<LockRow> rows(String where) throws SQLException {
                List<LockRow> rows = new ArrayList<>();
                try (Connection connection = dataSource.getConnection();
                        PreparedStatement statement = connection.prepareStatement(
                                "SELECT resource, owner, token, acquired_at FROM " + table + where);
                        ResultSet rs = statement.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new LockRow(rs.getString(1), rs.getString(2), rs.getLong(3),
                                dialect.readInstant(rs, 4)));
                    }
                }
                return rows;
            }
        };
    }

    /**
     * The run's lock keys on Redis, read one resource at a time (no {@code SCAN} of a server that other programs may
     * fill); expired locks are gone.
     */
    static LockView redis(RedisLockRepository repository, LettuceConnectionFactory factory, List<String> locks) {
        return new LockView() {

            @Override
            public List<LockRow> live() {
                List<LockRow> rows = new ArrayList<>();
                for (String lock : locks) {
                    Optional<LockRecord> found = repository.find(lock);
                    found.ifPresent(r -> rows.add(new LockRow(r.resource(), r.owner(), r.token(), r.acquiredAt())));
                }
                return rows;
            }

            @Override
            public List<LockRow> all() {
                return live();
            }

            @Override
            public Instant now() {
                return RedisTarget.serverTime(factory);
            }
        };
    }
}
