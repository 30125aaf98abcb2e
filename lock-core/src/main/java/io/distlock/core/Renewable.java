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
     * A renewal confirmed the lease. When the holder released it meanwhile, the renewal may have reached the database
     * after the release and kept the lock held: the lease then sends its release again instead.
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
     * The lease ran out on this machine's clock before a renewal could confirm it: the holder can no longer trust it,
     * although the database may still keep it a little longer (its release still goes to the database).
     *
     * @param reason why
     */
    void lost(String reason);

    /**
     * A statement found the lease gone: expired, or held by another owner. Its release sends nothing.
     *
     * @param reason why
     */
    void gone(String reason);
}
