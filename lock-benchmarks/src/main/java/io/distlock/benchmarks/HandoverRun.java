package io.distlock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;

/**
 * One timed run of the handover scenario: {@value #WAITERS} + 1 threads on one resource, each looping: wait for the
 * lock, hold it for {@link #HOLD}, release it, and then stay out until another thread has taken it, so that every
 * release finds exactly {@value #WAITERS} threads waiting and every acquisition is a handover. A sample is the time
 * from the moment the holder starts its release to the moment the next holder has the lock, both read with
 * {@link System#nanoTime()} in this process. Acquisitions in the warm-up are not sampled.
 */
final class HandoverRun {

    /** Threads waiting whenever the lock is released. */
    static final int WAITERS = 4;

    /** How long each holder keeps the lock. */
    static final Duration HOLD = Duration.ofMillis(1);

    /** How long one wait may last before it counts as timed out. */
    static final Duration MAX_WAIT = Duration.ofSeconds(10);

    private final HandoverSubject subject;

    private final String resource;

    private final AtomicReference<@Nullable Release> lastRelease = new AtomicReference<>();

    private final AtomicLong acquisitions = new AtomicLong();

    private final Object gate = new Object();

    private volatile boolean stop;

    private volatile long sampleFrom;

    private volatile long sampleUntil = Long.MAX_VALUE;

    private HandoverRun(HandoverSubject subject, String resource) {
        this.subject = subject;
        this.resource = resource;
    }

    /**
     * Runs the threads for the warm-up and then the measurement.
     *
     * @param subject the implementation, set up for {@value #WAITERS} + 1 threads
     * @param resource the resource they share
     * @param warmup how long to run before sampling
     * @param measurement how long to sample
     * @return the samples
     * @throws InterruptedException when interrupted
     */
    static Result run(HandoverSubject subject, String resource, Duration warmup, Duration measurement)
            throws InterruptedException {
        return new HandoverRun(subject, resource).run(warmup, measurement);
    }

    private Result run(Duration warmup, Duration measurement) throws InterruptedException {
        int threads = WAITERS + 1;
        List<Worker> workers = new ArrayList<>();
        long start = System.nanoTime();
        sampleFrom = start + warmup.toNanos();
        sampleUntil = sampleFrom + measurement.toNanos();
        for (int i = 0; i < threads; i++) {
            Worker worker = new Worker(i, subject.lockFor(i));
            workers.add(worker);
            worker.thread.start();
        }
        TimeUnit.NANOSECONDS.sleep(Math.max(0, sampleUntil - System.nanoTime()));
        stop = true;
        synchronized (gate) {
            gate.notifyAll();
        }
        long joinBy = System.nanoTime() + MAX_WAIT.toNanos() + TimeUnit.SECONDS.toNanos(5);
        long[] all = new long[0];
        int timeouts = 0;
        for (Worker worker : workers) {
            worker.thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(joinBy - System.nanoTime())));
            if (worker.thread.isAlive()) {
                worker.thread.interrupt();
                throw new IllegalStateException("a handover thread did not finish: " + worker.thread.getName());
            }
            if (worker.failure != null) {
                throw new IllegalStateException("a handover thread failed", worker.failure);
            }
            long[] mine = worker.samples.toArray();
            long[] merged = Arrays.copyOf(all, all.length + mine.length);
            System.arraycopy(mine, 0, merged, all.length, mine.length);
            all = merged;
            timeouts += worker.timeouts;
        }
        return new Result(all, timeouts);
    }

    /**
     * The samples of one run.
     *
     * @param samplesNanos release-to-acquired times, in nanoseconds, in no order
     * @param timeouts waits that ran out (none, unless something is wrong)
     */
    record Result(long[] samplesNanos, int timeouts) {
    }

    /** A release: by which thread, and when it began. */
    private record Release(int thread, long atNanos) {
    }

    private final class Worker implements Runnable {

        final int index;

        final HandoverLock lock;

        final Thread thread;

        final LongList samples = new LongList();

        int timeouts;

        @Nullable Throwable failure;

        Worker(int index, HandoverLock lock) {
            this.index = index;
            this.lock = lock;
            this.thread = new Thread(this, "handover-" + index);
            this.thread.setDaemon(true);
        }

        @Override
        public void run() {
            try {
                while (!stop) {
                    HandoverLock.Held held = lock.lock(resource, MAX_WAIT);
                    long acquiredAt = System.nanoTime();
                    if (held == null) {
                        timeouts++;
                        continue;
                    }
                    Release previous = lastRelease.get();
                    if (previous != null && previous.thread() != index && acquiredAt - sampleFrom >= 0
                            && acquiredAt - sampleUntil <= 0) {
                        samples.add(acquiredAt - previous.atNanos());
                    }
                    long taken = acquisitions.incrementAndGet();
                    synchronized (gate) {
                        gate.notifyAll();
                    }
                    hold();
                    lastRelease.set(new Release(index, System.nanoTime()));
                    held.release();
                    // Stay out until another thread has the lock: every release has the other threads waiting.
                    synchronized (gate) {
                        while (!stop && acquisitions.get() == taken) {
                            gate.wait(50);
                        }
                    }
                }
            }
            catch (Throwable ex) {
                failure = ex;
            }
        }

        private void hold() {
            long until = System.nanoTime() + HOLD.toNanos();
            for (long left = HOLD.toNanos(); left > 0; left = until - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
        }
    }

    /** A growable list of longs. */
    private static final class LongList {

        private long[] values = new long[1024];

        private int size;

        void add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        long[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
