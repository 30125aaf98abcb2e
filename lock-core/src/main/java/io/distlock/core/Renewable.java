package io.distlock.core;

import java.time.Duration;

/**
 * The side of a lease the {@link LeaseWatchdog} sees: which acquisition to renew, when it was last confirmed, and
 * where to report what a renewal round found.
 */
interface Renewable {

    /** @return the acquisition the renewal is addressed to */
    LeaseKey key();

    /** @return the lease length to renew with */
    Duration ttl();

    /** @return when the last acquire or renew statement that confirmed the lease was sent ({@link System#nanoTime()}) */
    long renewedAtNanos();

    /** @return when the lease runs out on this machine's monotonic clock, unless renewed before */
    long localDeadlineNanos();

    /** @return whether the holder released the lease */
    boolean isReleased();

    /**
     * Takes the lease's operation lock for one renewal round, unless a manual renewal or the release holds it: the
     * database then sees the lease's statements in the order the holder applies their answers.
     *
     * @return whether the lock was taken; the round skips the lease when not
     */
    boolean tryLockForRenewal();

    /** Lets go of the lock {@link #tryLockForRenewal()} took, on the same thread. */
    void unlockAfterRenewal();

    /**
     * A renewal confirmed the lease.
     *
     * @param record the lock with its new expiry
     * @param sentAtNanos when the renew statement was sent
     * @param ttl the lease length it was renewed with
     */
    void renewed(LockRecord record, long sentAtNanos, Duration ttl);

    /**
     * A renewal failed with an error.
     *
     * @param error what went wrong
     */
    void renewalFailed(RuntimeException error);

    /**
     * The lease is known lost.
     *
     * @param reason why
     */
    void lost(String reason);
}
