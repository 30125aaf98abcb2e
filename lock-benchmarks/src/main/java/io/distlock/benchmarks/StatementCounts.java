package io.distlock.benchmarks;

import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.core.LeaseKey;
import io.distlock.core.jdbc.JdbcLockRepository;
import io.distlock.testsupport.CountingDataSource;
import io.distlock.testsupport.TestDatabase;

/**
 * Counts statements per operation on a {@link CountingDataSource}, apart from the timed runs.
 */
final class StatementCounts {

    private static final int WARMUP_CYCLES = 20;

    private static final int COUNTED_CYCLES = 100;

    private StatementCounts() {
    }

    /**
     * What one implementation's cycle sends.
     *
     * @param impl the implementation id
     * @param db the database id
     * @param perCycle SQL statements per cycle
     * @param transactionEndsPerCycle commits and rollbacks per cycle
     * @param stateChangesPerCycle connection-state changes per cycle
     */
    record Cycle(String impl, String db, double perCycle, double transactionEndsPerCycle, double stateChangesPerCycle) {
    }

    /**
     * What one watchdog round sends.
     *
     * @param db the database id
     * @param leases held leases
     * @param perRound SQL statements per round
     */
    record Round(String db, int leases, double perRound) {
    }

    /**
     * Counts an implementation's uncontended cycle.
     *
     * @param db the database
     * @param impl the implementation
     * @return the counts
     */
    static Cycle cycle(TestDatabase db, LockImplementation impl) {
        try (HikariDataSource pool = BenchPool.open(db, "count-" + impl.id())) {
            BenchSchema.create(db, pool);
            BenchSchema.reset(db, pool, CycleBenchmark.allResources());
            CountingDataSource counting = new CountingDataSource(pool);
            try (LockClient client = impl.open(db, counting, "node-0")) {
                String resource = CycleBenchmark.ownResource(0);
                for (int i = 0; i < WARMUP_CYCLES; i++) {
                    client.cycle(resource);
                }
                counting.reset();
                for (int i = 0; i < COUNTED_CYCLES; i++) {
                    client.cycle(resource);
                }
                return new Cycle(impl.id(), db.id(), (double) counting.statements() / COUNTED_CYCLES,
                        (double) counting.transactionEnds() / COUNTED_CYCLES,
                        (double) counting.stateChanges() / COUNTED_CYCLES);
            }
            catch (Exception ex) {
                throw new IllegalStateException("Counting " + impl.id() + " on " + db.id() + " failed", ex);
            }
        }
    }

    /**
     * Counts one renewal round over held leases.
     *
     * @param db the database
     * @param leases how many leases are held
     * @return the count
     */
    static Round watchdogRound(TestDatabase db, int leases) {
        try (HikariDataSource pool = BenchPool.open(db, "count-watchdog")) {
            BenchSchema.create(db, pool);
            BenchSchema.reset(db, pool, List.of());
            CountingDataSource counting = new CountingDataSource(pool);
            JdbcLockRepository repository = WatchdogBenchmark.repository(db, counting);
            List<LeaseKey> keys = WatchdogBenchmark.holdLeases(db, pool, leases);
            counting.reset();
            WatchdogBenchmark.renewAll(repository, keys);
            return new Round(db.id(), leases, counting.statements());
        }
    }
}
