package io.distlock.core;

/**
 * How the {@link LeaseWatchdog} renews leases.
 *
 * @param threads how many daemon threads renew leases (1 to 64); renewals of one round run in few batched statements,
 *     so one thread serves thousands of leases
 * @param renewRatio the fraction of a lease's TTL after which it is renewed (above 0, at most 0.9); the default
 *     third leaves two more attempts before the lease runs out
 */
public record WatchdogSettings(int threads, double renewRatio) {

    /** One thread, renewing at a third of the TTL. */
    public static final WatchdogSettings DEFAULT = new WatchdogSettings(1, 1.0 / 3);

    public WatchdogSettings {
        if (threads < 1 || threads > 64) {
            throw new IllegalArgumentException("watchdog threads must be between 1 and 64, got " + threads);
        }
        if (!(renewRatio > 0 && renewRatio <= 0.9)) {
            throw new IllegalArgumentException("watchdog renew ratio must be above 0 and at most 0.9, got " + renewRatio);
        }
    }
}
