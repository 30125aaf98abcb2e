package io.distlock.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.core.LeaseKey;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.testsupport.CountingDataSource;
import io.distlock.testsupport.TestDatabase;

/**
 * Counts statements per operation, and the errors a contended cycle makes the database raise, on a
 * {@link CountingDataSource}, apart from the timed runs.
 */
final class StatementCounts {

    private static final int WARMUP_CYCLES = 20;

    private static final int COUNTED_CYCLES = 100;

    /** Threads of the contended error count: the contended goal's. */
    static final int CONTENDED_THREADS = 4;

    /** Attempts per thread of the contended error count. */
    static final int CONTENDED_ATTEMPTS = 250;

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
     * What one implementation's contended cycle made the database refuse.
     *
     * @param impl the implementation id
     * @param db the database id
     * @param threads threads on the one resource
     * @param attempts cycles attempted, over all threads
     * @param errors statements and transaction ends that failed with an {@code SQLException}: errors the server
     *     logs, whether the implementation handled them or not
     */
    record Errors(String impl, String db, int threads, int attempts, int errors) {
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
            try (LockClient client = impl.open(new LockStore.Database(db, counting), "node-0")) {
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
     * Counts the errors of an implementation's contended cycle: {@value #CONTENDED_THREADS} threads, each a node with
     * its own client, each attempting {@value #CONTENDED_ATTEMPTS} cycles on one resource, starting together.
     *
     * @param db the database
     * @param impl the implementation
     * @return the count
     * @throws InterruptedException when interrupted while the threads run
     */
    static Errors contended(TestDatabase db, LockImplementation impl) throws InterruptedException {
        try (HikariDataSource pool = BenchPool.open(db, "errors-" + impl.id())) {
            BenchSchema.create(db, pool);
            BenchSchema.reset(db, pool, CycleBenchmark.allResources());
            CountingDataSource counting = new CountingDataSource(pool);
            LockStore store = new LockStore.Database(db, counting);
            CountDownLatch start = new CountDownLatch(1);
            AtomicReference<RuntimeException> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < CONTENDED_THREADS; i++) {
                LockClient client = impl.open(store, "node-" + i);
                threads.add(new Thread(() -> {
                    try (client) {
                        start.await();
                        for (int attempt = 0; attempt < CONTENDED_ATTEMPTS; attempt++) {
                            client.cycle(CycleBenchmark.CONTENDED_RESOURCE);
                        }
                    }
                    catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                    catch (RuntimeException ex) {
                        failure.compareAndSet(null, ex);
                    }
                }, "bench-errors-" + impl.id() + "-" + i));
            }
            threads.forEach(Thread::start);
            start.countDown();
            for (Thread thread : threads) {
                thread.join();
            }
            if (failure.get() != null) {
                throw new IllegalStateException("Contended cycle of " + impl.id() + " on " + db.id() + " failed",
                        failure.get());
            }
            return new Errors(impl.id(), db.id(), CONTENDED_THREADS, CONTENDED_THREADS * CONTENDED_ATTEMPTS,
                    counting.errors());
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
            // A round as every round after the first sends: a connection's first use reads its lock wait setting once.
            WatchdogBenchmark.renewAll(repository, keys);
            counting.reset();
            WatchdogBenchmark.renewAll(repository, keys);
            return new Round(db.id(), leases, counting.statements());
        }
    }
}
