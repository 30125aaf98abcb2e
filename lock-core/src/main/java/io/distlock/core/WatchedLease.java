package io.distlock.core;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A lease the {@link LeaseWatchdog} keeps alive, and when it is renewed next. Its flags change under its own monitor.
 */
final class WatchedLease {

    final Renewable lease;

    final Duration maxHold;

    final long stopAtNanos;

    volatile long nextRenewalNanos;

    /** Whether a round is renewing it now. */
    volatile boolean inFlight;

    /** Whether the watchdog stopped renewing it. */
    volatile boolean cancelled;

    /** The cause of the last failed renewal, or {@code null} when the last one succeeded. */
    volatile @Nullable String lastFailure;

    WatchedLease(Renewable lease, Duration maxHold, long stopAtNanos) {
        this.lease = lease;
        this.maxHold = maxHold;
        this.stopAtNanos = stopAtNanos;
    }
}
