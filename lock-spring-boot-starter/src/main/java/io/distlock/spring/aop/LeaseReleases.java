package io.distlock.spring.aop;

import io.distlock.core.FailureLog;
import io.distlock.core.Lease;
import io.distlock.core.LockLostException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of an asynchronous guarded call: its lease released, and its loss, if it was lost on the way, for the
 * caller to tell as a synchronous call's loss is told.
 */
final class LeaseReleases {

    private static final Logger logger = LoggerFactory.getLogger(DistributedLockInterceptor.class);

    /**
     * The releases the store did not answer: in an outage every piece of asynchronous work that ends fails its
     * release, so they are told once, then summarised.
     */
    private static final FailureLog failures = new FailureLog(logger);

    private LeaseReleases() {
    }

    /**
     * Releases a lease, honouring its minimum hold; a release the store does not answer is logged (once in an
     * outage, then summarised), and the lease then runs out by its TTL.
     *
     * @param lease the lease
     * @return the loss when the lease was found lost before the end, otherwise {@code null}
     */
    static @Nullable LockLostException release(Lease lease) {
        if (!lease.isReleased()) {
            // Only a release that goes to the store tells whether the store answers: another end of the same work
            // asks again, and is answered by the lease itself.
            try {
                lease.release();
                failures.succeeded("Releasing the locks of asynchronous work");
            }
            catch (RuntimeException ex) {
                failures.failed("Could not release the lock of asynchronous work on '" + lease.resource() + "' "
                        + "(each lock the store does not release expires by itself at the end of its TTL, this one "
                        + "at " + lease.expiresAt() + ")", ex);
            }
        }
        if (!lease.isLost()) {
            return null;
        }
        try {
            lease.checkHeld();
            return null;
        }
        catch (LockLostException ex) {
            return ex;
        }
    }
}
