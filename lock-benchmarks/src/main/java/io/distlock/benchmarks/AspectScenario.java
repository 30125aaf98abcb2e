package io.distlock.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.testsupport.CountingDataSource;
import io.distlock.testsupport.TestDatabase;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * The aspect comparison's pieces outside JMH: the benchmark pattern and the statement count per annotated call.
 */
final class AspectScenario {

    static final String BENCHMARK_PATTERN = AspectBenchmark.class.getName() + ".call$";

    private static final int WARMUP_CALLS = 20;

    private static final int COUNTED_CALLS = 100;

    private AspectScenario() {
    }

    /**
     * Counts the statements of one {@code @DistributedLock} call.
     *
     * @param db the database
     * @return the count, as implementation {@code distlock-aspect}
     */
    static StatementCounts.Cycle count(TestDatabase db) {
        try (HikariDataSource pool = BenchPool.open(db, "count-aspect")) {
            BenchSchema.create(db, pool);
            BenchSchema.reset(db, pool, CycleBenchmark.allResources());
            CountingDataSource counting = new CountingDataSource(pool);
            try (ConfigurableApplicationContext context = AspectBenchmark.Application.start(db, counting)) {
                AspectBenchmark.GuardedJob job = context.getBean(AspectBenchmark.GuardedJob.class);
                String resource = CycleBenchmark.ownResource(0);
                for (int i = 0; i < WARMUP_CALLS; i++) {
                    job.run(resource);
                }
                counting.reset();
                for (int i = 0; i < COUNTED_CALLS; i++) {
                    job.run(resource);
                }
                return new StatementCounts.Cycle("distlock-aspect", db.id(),
                        (double) counting.statements() / COUNTED_CALLS,
                        (double) counting.transactionEnds() / COUNTED_CALLS,
                        (double) counting.stateChanges() / COUNTED_CALLS);
            }
        }
    }
}
