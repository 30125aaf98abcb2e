package io.distlock.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The lock cycle (take without waiting, give back) of every implementation on one store: a database with its pool and
 * table state, or the Redis server with its shared clients.
 * {@link #uncontended} gives each thread a resource of its own; {@link #contended} puts all threads on one resource
 * and reports attempts per second as the score and successful acquisitions per second as the {@code acquired}
 * counter. Each thread is a node with its own client, as separate application instances would be.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CycleBenchmark {

    /** The most threads any run uses; the floor pre-inserts a row for each thread's resource. */
    public static final int MAX_THREADS = BenchPool.SIZE;

    /** The resource all threads fight over in {@link #contended}. */
    public static final String CONTENDED_RESOURCE = "bench-contended";

    /**
     * The resource thread {@code index} locks in {@link #uncontended}.
     *
     * @param index the thread's index
     * @return the resource name
     */
    public static String ownResource(int index) {
        return "bench-uncontended-" + index;
    }

    /**
     * Every resource a run may lock, for the floor's pre-inserted rows.
     *
     * @return the names
     */
    public static List<String> allResources() {
        List<String> resources = new ArrayList<>();
        for (int i = 0; i < MAX_THREADS; i++) {
            resources.add(ownResource(i));
        }
        resources.add(CONTENDED_RESOURCE);
        return resources;
    }

    /** The store, the implementation and the shared pool or clients. */
    @State(Scope.Benchmark)
    public static class Shared {

        /** The store id: a database's, or {@code redis}. */
        @Param({"h2"})
        public String db;

        /** The implementation id. */
        @Param({"distlock"})
        public String impl;

        LockImplementation implementation;

        LockStore store;

        @Setup(Level.Trial)
        public void open() {
            implementation = LockImplementation.byId(impl);
            store = LockStore.open(db, impl, allResources());
        }

        @TearDown(Level.Trial)
        public void close() {
            store.close();
        }
    }

    /** One benchmark thread's client and own resource. */
    @State(Scope.Thread)
    public static class Node {

        LockClient client;

        String ownResource;

        /** The implementation and store, for messages. */
        String where;

        @Setup(Level.Trial)
        public void open(Shared shared, ThreadParams thread) {
            String name = "node-" + thread.getThreadIndex();
            client = shared.implementation.open(shared.store, name);
            ownResource = ownResource(thread.getThreadIndex());
            where = shared.impl + " on " + shared.db;
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            client.close();
        }
    }

    /** Successful acquisitions in {@link #contended}, reported per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Acquisitions {

        /** Attempts that took the lock. */
        public long acquired;

        @Setup(Level.Iteration)
        public void clear() {
            acquired = 0;
        }
    }

    /**
     * Each thread locks and unlocks a resource of its own.
     *
     * @param node the thread's client
     * @return whether the lock was taken (always, unless something is wrong)
     */
    @Benchmark
    public boolean uncontended(Node node) {
        if (!node.client.cycle(node.ownResource)) {
            throw new IllegalStateException("uncontended cycle of " + node.where + " on " + node.ownResource
                    + " was refused");
        }
        return true;
    }

    /**
     * All threads try to lock and unlock the same resource.
     *
     * @param node the thread's client
     * @param acquisitions the success counter
     * @return whether this attempt took the lock
     */
    @Benchmark
    public boolean contended(Node node, Acquisitions acquisitions) {
        boolean acquired = node.client.cycle(CONTENDED_RESOURCE);
        if (acquired) {
            acquisitions.acquired++;
        }
        return acquired;
    }
}
