package io.distlock.spring.aop;

import java.time.Duration;
import java.util.Objects;

import io.distlock.core.LockArguments;

/**
 * What a {@link io.distlock.spring.DistributedLock} declaration falls back to, and the bound it is checked against.
 *
 * @param ttl the lease length when {@code ttl} is empty
 * @param maxHold the watchdog's limit when {@code maxHold} is empty
 * @param maxTtl the longest lease the repository accepts
 */
record LockedMethodDefaults(Duration ttl, Duration maxHold, Duration maxTtl) {

    /** The defaults of the {@code distributed-lock.*} properties: 30 seconds, one hour, one day. */
    public static final LockedMethodDefaults STANDARD = new LockedMethodDefaults(Duration.ofSeconds(30),
            Duration.ofHours(1), LockArguments.DEFAULT_MAX_TTL);

    public LockedMethodDefaults {
        Objects.requireNonNull(ttl, "ttl");
        Objects.requireNonNull(maxHold, "maxHold");
        Objects.requireNonNull(maxTtl, "maxTtl");
    }
}
