package io.distlock.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.LockObserver;
import io.distlock.core.LockRequest;
import io.distlock.testsupport.CountingDataSource;
import io.distlock.testsupport.TestDatabase;

/**
 * Many leases held at once and kept alive by the watchdog, as {@code LockManager.acquire(LockRequest)} keeps them by
 * default: the heap they retain, and the statements the watchdog sends per round for all of them.
 * <p>
 * Heap: the used heap after {@code System.gc()}, the median of several samples, once with the manager built and
 * warmed up and the resource names made, and again with every lease held; the difference, divided by the lease
 * count, is what the manager keeps per lease (its lease, record, key, owner token, registry and watchdog entries),
 * plus the caller's reference to the lease. Statements: counted by a statement-counting {@code DataSource} under
 * the repository, read by an observer at each renewal it is told of: the watchdog has one thread, which tells of a
 * round's renewals after the round's statements and before the next round's, so the count read at the last renewal
 * of a round ends that round exactly. Divided by the rounds between two such readings (renewals ÷ leases).
 */
final class HeapScenario {

    /** The lease length: the watchdog renews after a third of it, so rounds come every second. */
    static final Duration TTL = Duration.ofSeconds(3);

    private static final int ACQUIRING_THREADS = 8;

    private static final int GC_SAMPLES = 5;

    private static final int COUNTED_ROUNDS = 2;

    private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private HeapScenario() {
    }

    /**
     * What one run found.
     *
     * @param db the database id
     * @param leases held leases
     * @param bytesPerLease retained heap per held lease
     * @param statementsPerRound statements per watchdog round renewing every lease
     * @param rounds watchdog rounds counted (renewals ÷ leases)
     * @param lost leases found lost meanwhile (none, unless something is wrong)
     */
    record Figure(String db, int leases, double bytesPerLease, double statementsPerRound, double rounds, long lost) {

        /** @return the retained heap of all the leases, in MB (10⁶ bytes) */
        double totalMegabytes() {
            return bytesPerLease * leases / 1e6;
        }
    }

    /**
     * Holds the leases, measures, and lets them go.
     *
     * @param db the database
     * @param leases how many
     * @return the figure
     * @throws InterruptedException when interrupted
     */
    static Figure measure(TestDatabase db, int leases) throws InterruptedException {
        try (HikariDataSource pool = BenchPool.open(db, "heap")) {
            BenchSchema.create(db, pool);
            BenchSchema.reset(db, pool, List.of());
            CountingDataSource counting = new CountingDataSource(pool);
            Renewals renewals = new Renewals(counting);
            LockManager manager = LockManager.builder(WatchdogBenchmark.repository(db, counting)).observer(renewals)
                    .build();
            try {
                String[] names = new String[leases];
                for (int i = 0; i < leases; i++) {
                    names[i] = "bench-heap-" + i;
                }
                Lease[] held = new Lease[leases];
                // Warm up the acquire, keep-alive and release paths, so that what they load is in the baseline.
                for (int i = 0; i < 200; i++) {
                    manager.acquire(LockRequest.of(names[i], TTL)).orElseThrow().release();
                }
                long before = usedHeapAfterGc();
                acquireAll(manager, names, held);
                // Let the watchdog's rounds align (leases acquired over a few seconds fall into one round).
                renewals.awaitRounds(leases, 3);
                long after = usedHeapAfterGc();
                long[] first = renewals.awaitRounds(leases, 0);
                long[] last = renewals.awaitRounds(leases, COUNTED_ROUNDS);
                long statements = last[1] - first[1];
                long renewed = last[0] - first[0];
                double rounds = (double) renewed / leases;
                long lost = manager.lostLeaseCount();
                if (Arrays.stream(held).anyMatch(lease -> lease == null)) {
                    throw new IllegalStateException("not every lease was taken");
                }
                return new Figure(db.id(), leases, (double) (after - before) / leases,
                        renewed > 0 ? statements / rounds : Double.NaN, rounds, lost);
            }
            finally {
                // The leases run out with the manager's watchdog; the next reset removes their rows.
                manager.close();
            }
        }
    }

    private static void acquireAll(LockManager manager, String[] names, Lease[] held) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        Throwable[] failure = new Throwable[1];
        for (int t = 0; t < ACQUIRING_THREADS; t++) {
            Thread thread = new Thread(() -> {
                try {
                    for (int i = next.getAndIncrement(); i < names.length; i = next.getAndIncrement()) {
                        held[i] = manager.acquire(LockRequest.of(names[i], TTL)).orElseThrow(
                                () -> new IllegalStateException("a free resource was refused"));
                    }
                }
                catch (Throwable ex) {
                    synchronized (failure) {
                        failure[0] = ex;
                    }
                }
            }, "heap-acquire-" + t);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        synchronized (failure) {
            if (failure[0] != null) {
                throw new IllegalStateException("taking the leases failed", failure[0]);
            }
        }
    }

    /**
     * Counts renewals, and reads the statement count at each: on the watchdog's one thread, that reading falls after
     * the statements of the renewal's round and before those of the next.
     */
    private static final class Renewals implements LockObserver {

        private final CountingDataSource counting;

        private long renewals;

        private long statementsAtLastRenewal;

        private long lastRenewalNanos = System.nanoTime();

        Renewals(CountingDataSource counting) {
            this.counting = counting;
        }

        @Override
        public synchronized void renewed(Lease lease) {
            renewals++;
            statementsAtLastRenewal = counting.statements();
            lastRenewalNanos = System.nanoTime();
        }

        /**
         * Waits until at least {@code rounds} more rounds' worth of renewals came and the round in flight told all of
         * its renewals (none came for a while).
         *
         * @return renewals so far and the statement count at the last of them
         */
        long[] awaitRounds(int leases, int rounds) throws InterruptedException {
            long target;
            synchronized (this) {
                target = renewals + (long) rounds * leases;
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30L * Math.max(1, rounds));
            while (true) {
                synchronized (this) {
                    if (renewals >= target && System.nanoTime() - lastRenewalNanos >= QUIET_NANOS) {
                        return new long[] {renewals, statementsAtLastRenewal};
                    }
                    if (System.nanoTime() - deadline > 0) {
                        throw new IllegalStateException("the watchdog renewed " + renewals + " of " + target
                                + " leases in time");
                    }
                }
                TimeUnit.MILLISECONDS.sleep(10);
            }
        }
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long[] samples = new long[GC_SAMPLES];
        for (int i = 0; i < GC_SAMPLES; i++) {
            System.gc();
            TimeUnit.MILLISECONDS.sleep(50);
            samples[i] = memory.getHeapMemoryUsage().getUsed();
        }
        Arrays.sort(samples);
        return samples[GC_SAMPLES / 2];
    }
}
