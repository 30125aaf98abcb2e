package io.distlock.core;

import java.time.Duration;
import java.util.Objects;

/**
 * What to lock and how: the resource, the lease length, how long to wait for a held lock, how long the lock stays
 * held at least and how long it is kept alive at most. A request checks itself when it is made, so a bad value fails
 * with a message naming the field before any statement runs.
 *
 * <pre>{@code
 * LockRequest request = LockRequest.of("report:2026-05", Duration.ofMinutes(5))
 *         .withMinHold(Duration.ofSeconds(30))
 *         .withMaxHold(Duration.ofHours(2));
 * }</pre>
 *
 * @param resource the resource to lock: 1 to 255 characters, no control characters
 * @param ttl how long the lease lasts unless renewed; a crashed holder frees the lock within one TTL
 * @param maxWait how long to keep trying while another owner holds the lock; zero tries once
 * @param minHold how long after acquisition the lock stays held at least, even when released sooner
 * @param maxHold how long the watchdog keeps renewing the lease at most, counted from acquisition
 * @param renew whether the watchdog renews the lease while the work runs
 * @param label the name observers and metrics record this lock under, such as a resource template; keep the number
 *     of distinct labels small
 */
public record LockRequest(String resource, Duration ttl, Duration maxWait, Duration minHold, Duration maxHold,
        boolean renew, String label) {

    /** The label of requests that set none. */
    public static final String DEFAULT_LABEL = "programmatic";

    /** How long the watchdog renews a lease of a request that sets no maximum hold. */
    public static final Duration DEFAULT_MAX_HOLD = Duration.ofHours(1);

    /** The longest wait a request accepts. */
    public static final Duration MAX_WAIT = Duration.ofDays(1);

    /** The longest duration of any kind a request accepts: beyond it, a value is a unit mistake. */
    public static final Duration MAX_DURATION = LockArguments.MAX_DURATION;

    public LockRequest {
        LockArguments.requireResource(resource);
        LockArguments.requireWholeMillis("ttl", LockArguments.requireDuration("ttl", ttl, LockArguments.MIN_TTL,
                MAX_DURATION));
        LockArguments.requireDuration("maxWait", maxWait, Duration.ZERO, MAX_WAIT);
        LockArguments.requireWholeMillis("minHold", LockArguments.requireDuration("minHold", minHold, Duration.ZERO,
                MAX_DURATION));
        LockArguments.requireDuration("maxHold", maxHold, LockArguments.MIN_TTL, MAX_DURATION);
        if (renew && minHold.compareTo(maxHold) > 0) {
            throw new IllegalArgumentException("minHold (" + minHold + ") must not exceed maxHold (" + maxHold + ")");
        }
        Objects.requireNonNull(label, "label must not be null");
        if (label.isBlank()) {
            throw new IllegalArgumentException("label must not be blank");
        }
    }

    /**
     * A request that tries once, renews the lease for up to {@link #DEFAULT_MAX_HOLD}, and frees the lock at release.
     *
     * @param resource the resource to lock
     * @param ttl the lease length
     * @return the request
     * @throws IllegalArgumentException naming the bad value
     */
    public static LockRequest of(String resource, Duration ttl) {
        return new LockRequest(resource, ttl, Duration.ZERO, Duration.ZERO, DEFAULT_MAX_HOLD, true, DEFAULT_LABEL);
    }

    /**
     * This request, waiting up to {@code maxWait} for a held lock, polling with backoff.
     *
     * @param maxWait how long to keep trying
     * @return a new request
     */
    public LockRequest withMaxWait(Duration maxWait) {
        return new LockRequest(resource, ttl, maxWait, minHold, maxHold, renew, label);
    }

    /**
     * This request, keeping the lock held until {@code minHold} after acquisition even when released sooner.
     *
     * @param minHold the minimum hold time
     * @return a new request
     */
    public LockRequest withMinHold(Duration minHold) {
        return new LockRequest(resource, ttl, maxWait, minHold, maxHold, renew, label);
    }

    /**
     * This request, renewing the lease for at most {@code maxHold} after acquisition.
     *
     * @param maxHold the longest time the watchdog renews the lease
     * @return a new request
     */
    public LockRequest withMaxHold(Duration maxHold) {
        return new LockRequest(resource, ttl, maxWait, minHold, maxHold, renew, label);
    }

    /**
     * This request without renewal: the lease ends one TTL after acquisition unless renewed by hand.
     *
     * @return a new request
     */
    public LockRequest withoutRenewal() {
        return new LockRequest(resource, ttl, maxWait, minHold, maxHold, false, label);
    }

    /**
     * This request, recorded by observers and metrics under {@code label}.
     *
     * @param label a low-cardinality name, such as a resource template
     * @return a new request
     */
    public LockRequest withLabel(String label) {
        return new LockRequest(resource, ttl, maxWait, minHold, maxHold, renew, label);
    }
}
