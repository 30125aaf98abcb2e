package io.distlock.core;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Interrupts the thread running guarded work when its lease is found lost, but only while that work runs; clears
 * the interrupt it caused when the work ends, so that it does not leak into the thread's next task.
 */
final class LossInterrupter implements LeaseLostListener {

    private static final Logger logger = LoggerFactory.getLogger(LossInterrupter.class);

    private final Thread thread = Thread.currentThread();

    private boolean running = true;

    private boolean interrupted;

    @Override
    public synchronized void leaseLost(Lease lease, String reason) {
        if (running) {
            interrupted = true;
            logger.warn("Interrupting {} because its lock on '{}' was lost", thread.getName(), lease.resource());
            thread.interrupt();
        }
    }

    synchronized void workEnded() {
        running = false;
        if (interrupted) {
            Thread.interrupted();
        }
    }
}
