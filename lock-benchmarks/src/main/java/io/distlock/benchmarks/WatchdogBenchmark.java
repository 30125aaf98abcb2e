package io.distlock.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.core.LeaseKey;
import io.distlock.core.LockRecord;
import io.distlock.core.RandomOwnerGenerator;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.testsupport.TestDatabase;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One watchdog renewal round over many held leases: {@code LockRepository.renewAll}, the single call a
 * {@code LeaseWatchdog} round makes for all due leases that share a TTL. Milliseconds per round.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class WatchdogBenchmark {

    /** The lease length every held lease is renewed to. */
    public static final Duration TTL = Duration.ofMinutes(10);

    /** The database id. */
    @Param({"h2"})
    public String db;

    /** How many leases are held. */
    @Param({"1000"})
    public int leases;

    private HikariDataSource pool;

    private JdbcLockRepository repository;

    private List<LeaseKey> keys;

    @Setup(Level.Trial)
    public void holdLeases() {
        TestDatabase database = TestDatabase.byId(db);
        pool = BenchPool.open(database, "watchdog");
        BenchSchema.create(database, pool);
        BenchSchema.reset(database, pool, List.of());
        repository = repository(database, pool);
        keys = holdLeases(database, pool, leases);
    }

    @TearDown(Level.Trial)
    public void close() {
        pool.close();
    }

    /**
     * Renews every held lease once.
     *
     * @return the renewed records
     */
    @Benchmark
    public Map<LeaseKey, LockRecord> renewalRound() {
        return renewAll(repository, keys);
    }

    static JdbcLockRepository repository(TestDatabase database, DataSource dataSource) {
        return JdbcLockRepository.builder(dataSource).tableName(BenchSchema.DISTLOCK_TABLE).dialect(database.dialect())
                .build();
    }

    /**
     * Writes {@code count} held leases straight into the lock table, each with its own owner token and a token from
     * the sequence, in one transaction: the state {@code count} successful acquires leave, without paying for
     * {@code count} durable commits before every measurement.
     *
     * @param database the database
     * @param dataSource where the lock table lives
     * @param count how many
     * @return their keys
     */
    static List<LeaseKey> holdLeases(TestDatabase database, DataSource dataSource, int count) {
        LockDialect dialect = database.dialect();
        String sequence = BenchSchema.DISTLOCK_TABLE + "_token_seq";
        String nextToken = switch (database) {
            case H2 -> "NEXT VALUE FOR " + sequence;
            case POSTGRESQL -> "nextval('" + sequence + "')";
            case MARIADB -> "NEXTVAL(" + sequence + ")";
        };
        String now = dialect.currentTimeExpression();
        String insert = "INSERT INTO " + BenchSchema.DISTLOCK_TABLE + " (resource, owner, token, acquired_at, expires_at) "
                + "VALUES (?, ?, " + nextToken + ", " + now + ", " + dialect.plusMillis(now, "?") + ")";
        RandomOwnerGenerator owners = new RandomOwnerGenerator();
        List<LeaseKey> keys = new ArrayList<>(count);
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement statement = connection.prepareStatement(insert)) {
                for (int i = 0; i < count; i++) {
                    LeaseKey key = new LeaseKey("bench-watchdog-" + i, owners.nextOwner());
                    statement.setString(1, key.resource());
                    statement.setString(2, key.owner());
                    statement.setLong(3, TTL.toMillis());
                    statement.addBatch();
                    keys.add(key);
                }
                statement.executeBatch();
            }
            connection.commit();
            connection.setAutoCommit(true);
        }
        catch (SQLException ex) {
            throw new IllegalStateException("Cannot write " + count + " held leases on " + database.id(), ex);
        }
        return keys;
    }

    static Map<LeaseKey, LockRecord> renewAll(JdbcLockRepository repository, List<LeaseKey> keys) {
        Map<LeaseKey, LockRecord> renewed = repository.renewAll(keys, TTL);
        if (renewed.size() != keys.size()) {
            throw new IllegalStateException("renewed " + renewed.size() + " of " + keys.size() + " leases");
        }
        return renewed;
    }
}
