package io.distlock.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How the {@link LeaseWatchdog} renews leases.
 *
 * @param threads how many daemon threads renew leases (1 to 64); renewals of one round run in few batched statements,
 *     so one thread serves thousands of leases
 * @param renewRatio the fraction of a lease's TTL after which it is renewed (above 0, at most 0.9); the default
 *     third leaves two more attempts before the lease runs out
 */
public record WatchdogSettings(int threads, double renewRatio) {

    /** The most renewal threads. */
    public static final int MAX_THREADS = 64;

    /** The latest fraction of a lease's TTL a renewal may wait for. */
    public static final double MAX_RENEW_RATIO = 0.9;

    /** One thread, renewing at a third of the TTL. */
    public static final WatchdogSettings DEFAULT = new WatchdogSettings(1, 1.0 / 3);

    public WatchdogSettings {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("watchdog threads must be between 1 and " + MAX_THREADS + ", got "
                    + threads);
        }
        if (!(renewRatio > 0 && renewRatio <= MAX_RENEW_RATIO)) {
            throw new IllegalArgumentException("watchdog renew ratio must be above 0 and at most " + MAX_RENEW_RATIO
                    + ", got " + renewRatio);
        }
    }

    /**
     * How long after a confirmed renewal a lease with this TTL is renewed again.
     *
     * @param ttl the lease length
     * @return the interval, in nanoseconds, at least 1
     */
    long intervalNanos(Duration ttl) {
        return Math.max(1, (long) (ttl.toNanos() * renewRatio));
    }

    /**
     * How soon a lease whose renewal failed, or sat a round out, is tried again: a quarter of its interval, from 10 ms
     * to 1 s.
     *
     * @param ttl the lease length
     * @return the delay, in nanoseconds
     */
    long retryNanos(Duration ttl) {
        return Math.min(TimeUnit.SECONDS.toNanos(1),
                Math.max(TimeUnit.MILLISECONDS.toNanos(10), intervalNanos(ttl) / 4));
    }
}
