package io.distlock.core;

import java.time.Duration;
import java.util.List;

/**
 * What a {@link Lease} needs from the manager that issued it: the repository, the watchdog's service, and where to
 * report its end. A narrow view, so that a lease never reaches back into the manager itself.
 */
interface LeaseHost {

    /** @return the repository the lease was taken from */
    LockRepository repository();

    /**
     * Has the watchdog renew a lease until it is released, lost, or {@code maxHold} has passed.
     *
     * @param renewable the lease's renewal side
     * @param maxHold how long to keep renewing at most, counted from now
     */
    void keepAlive(Renewable renewable, Duration maxHold);

    /**
     * Stops renewing a lease, without waiting for a renewal of it in flight.
     *
     * @param renewable the lease's renewal side
     */
    void stopKeepingAlive(Renewable renewable);

    /**
     * A lease was renewed, by the watchdog or by hand.
     *
     * @param lease the lease
     */
    void renewed(Lease lease);

    /**
     * A renewal failed with an error and is retried while the lease may still be alive.
     *
     * @param lease the lease
     * @param error what went wrong
     */
    void renewalFailed(Lease lease, RuntimeException error);

    /**
     * A lease was found lost; called once per lease.
     *
     * @param lease the lease
     * @param reason why it is known lost
     * @param leaseListeners the listeners registered on the lease itself
     */
    void lost(Lease lease, String reason, List<LeaseLostListener> leaseListeners);

    /**
     * The holder is about to send the release statement of a lease.
     *
     * @param lease the lease
     */
    void releasing(Lease lease);

    /**
     * The holder released a lease.
     *
     * @param lease the lease
     * @param held how long it was held
     */
    void released(Lease lease, Duration held);
}
