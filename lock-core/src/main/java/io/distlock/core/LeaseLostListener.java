package io.distlock.core;

/**
 * Told when the watchdog, a renewal or a release finds that a lease is gone, so the holder can stop its work.
 */
@FunctionalInterface
public interface LeaseLostListener {

    /**
     * Called once per lease, on the thread that found out, after {@link Lease#isLost()} became {@code true}.
     *
     * @param lease the lost lease
     * @param reason why it is known to be lost
     */
    void leaseLost(Lease lease, String reason);
}
