package io.distlock.spring.aop;

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

    private LeaseReleases() {
    }

    /**
     * Releases a lease, honouring its minimum hold; a release the store does not answer is logged, and the lease
     * then runs out by its TTL.
     *
     * @param lease the lease
     * @return the loss when the lease was found lost before the end, otherwise {@code null}
     */
    static @Nullable LockLostException release(Lease lease) {
        try {
            lease.release();
        }
        catch (RuntimeException ex) {
            logger.warn("Could not release the lock on '{}'; it expires by itself at {}", lease.resource(),
                    lease.expiresAt(), ex);
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
