package io.distlock.spring.aop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.LockRepository;
import io.distlock.jdbc.LockTableName;
import io.distlock.testsupport.CountingDataSource;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Measures what {@code @DistributedLock} costs per call over the same work done with the programmatic API: acquire,
 * hand to the watchdog, release. Once on embedded H2 (the cheapest real database, where the aspect's share is
 * largest), once on a lock table in a map (the aspect's own CPU cost). Prints the figures; asserts nothing about
 * time, which depends on the machine.
 */
class AspectOverheadTests {

    private static final int WARM_UP_CALLS = 2_000;

    private static final int BLOCKS = 40;

    private static final int BLOCK_CALLS = 50;

    @Test
    void printsTheAspectsCostPerCallOnH2() {
        TestDatabase database = TestDatabase.H2;
        LockTableName table = database.createLockTable();
        try (ConfigurableApplicationContext context = ContractTestApplication.start(database.dataSource(),
                "distributed-lock.table-name=" + table, "distributed-lock.jdbc.initialize-schema=never",
                "test.lock.prefix=overhead")) {
            report("H2", measure(context.getBean(GuardedJobs.class), context.getBean(LockManager.class)));
        }
        finally {
            database.dropLockTable(table);
        }
    }

    @Test
    void printsTheAspectsOwnCostPerCallWithoutADatabase() {
        new ApplicationContextRunner()
            .withUserConfiguration(ContractTestApplication.class)
            .withBean("dataSource", CountingDataSource.class, () -> new CountingDataSource(new EmbeddedDatabaseBuilder()
                .setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build()))
            .withBean(LockRepository.class, InMemoryLockRepository::new)
            .withPropertyValues("test.lock.prefix=overhead")
            .run(context -> report("an in-memory lock table",
                    measure(context.getBean(GuardedJobs.class), context.getBean(LockManager.class))));
    }

    private static Map<String, Long> measure(GuardedJobs jobs, LockManager manager) {
        Map<String, Runnable> variants = new LinkedHashMap<>();
        variants.put("programmatic tryAcquire + keepAlive + release", () -> {
            Lease lease = manager.tryAcquire("overhead:literal", Duration.ofSeconds(30)).orElseThrow();
            try {
                lease.keepAlive(Duration.ofHours(1));
            }
            finally {
                lease.release();
            }
        });
        variants.put("@DistributedLock(resource = \"overhead:literal\")", jobs::overheadLiteral);
        variants.put("@DistributedLock(resource = \"overhead:#{#id}\")", () -> jobs.overheadTemplate("literal"));
        variants.values().forEach(variant -> time(variant, WARM_UP_CALLS));
        Map<String, long[]> blocks = new LinkedHashMap<>();
        variants.keySet().forEach(name -> blocks.put(name, new long[BLOCKS]));
        List<String> order = new ArrayList<>(variants.keySet());
        for (int block = 0; block < BLOCKS; block++) {
            Collections.rotate(order, 1);
            for (String name : order) {
                blocks.get(name)[block] = time(variants.get(name), BLOCK_CALLS) / BLOCK_CALLS;
            }
        }
        Map<String, Long> medians = new LinkedHashMap<>();
        blocks.forEach((name, nanos) -> {
            Arrays.sort(nanos);
            medians.put(name, nanos[nanos.length / 2]);
        });
        return medians;
    }

    private static void report(String where, Map<String, Long> nanosPerCall) {
        long baseline = nanosPerCall.values().iterator().next();
        StringBuilder report = new StringBuilder("ASPECT OVERHEAD on " + where + ": median of " + BLOCKS
                + " interleaved blocks of " + BLOCK_CALLS + " calls per variant\n");
        nanosPerCall.forEach((name, nanos) -> report.append(String.format("  %-50s %,9d ns/call  x%.2f  %+,d ns%n",
                name, nanos, (double) nanos / baseline, nanos - baseline)));
        System.out.print(report);
        assertThat(baseline).isPositive();
    }

    private static long time(Runnable call, int calls) {
        long started = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            call.run();
        }
        return System.nanoTime() - started;
    }
}
