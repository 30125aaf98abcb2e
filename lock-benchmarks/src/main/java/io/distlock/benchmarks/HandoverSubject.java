package io.distlock.benchmarks;

/**
 * One implementation set up for the handover scenario's threads: either one client that all threads share (the
 * threads are one application's) or one client per thread (each thread stands for an application instance of its
 * own).
 */
interface HandoverSubject extends AutoCloseable {

    /**
     * The lock handle a thread uses.
     *
     * @param thread the thread's index, from 0
     * @return its handle
     */
    HandoverLock lockFor(int thread);

    @Override
    void close();
}
