package io.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;

import org.jspecify.annotations.Nullable;

/**
 * The rules the arguments of every lock operation are checked by, before anything reaches the store, so that bad
 * input fails with a message naming the value at fault and changes nothing: one method per operation of
 * {@link LockRepository} and its capabilities, which every store and every wrapper calls first, and the bounds they
 * share. An instance carries a store's longest lease ({@link LockRepository#arguments()}).
 */
public final class LockArguments {

    /** Longest resource name and owner token the lock table stores. */
    public static final int MAX_NAME_LENGTH = 255;

    /** Shortest lease the database clocks can express reliably. */
    public static final Duration MIN_TTL = Duration.ofMillis(1);

    /** The longest lease a store accepts unless configured otherwise: a longer one is likely a unit mistake. */
    public static final Duration DEFAULT_MAX_TTL = Duration.ofDays(1);

    /**
     * The longest duration of any kind accepted (10 years): beyond it, a value is a unit mistake, and it stays inside
     * what every database's interval arithmetic accepts.
     */
    public static final Duration MAX_DURATION = Duration.ofDays(3650);

    /**
     * Shortest retention of expired rows: an acquire that drew its token before a row was deleted must have inserted
     * long before, or a smaller token could follow a larger one.
     */
    public static final Duration MIN_RETENTION = Duration.ofMinutes(1);

    /** The rules with the {@link #DEFAULT_MAX_TTL default longest lease}. */
    public static final LockArguments DEFAULT = new LockArguments(DEFAULT_MAX_TTL);

    private final Duration maxTtl;

    private LockArguments(Duration maxTtl) {
        this.maxTtl = maxTtl;
    }

    /**
     * The rules of a store whose longest lease is {@code maxTtl}.
     *
     * @param maxTtl the longest lease, from {@link #MIN_TTL} to {@link #MAX_DURATION}
     * @return the rules
     * @throws IllegalArgumentException naming {@code maxTtl} when out of bounds
     */
    public static LockArguments withMaxTtl(@Nullable Duration maxTtl) {
        return new LockArguments(requireDuration("maxTtl", maxTtl, MIN_TTL, MAX_DURATION));
    }

    /** @return the longest lease accepted */
    public Duration maxTtl() {
        return maxTtl;
    }

    /**
     * Checks an acquire's or a renewal's arguments.
     *
     * @param resource the resource
     * @param owner the owner token
     * @param ttl the lease length
     * @return the lease length in milliseconds
     * @throws IllegalArgumentException naming the value at fault
     */
    public long lease(@Nullable String resource, @Nullable String owner, @Nullable Duration ttl) {
        requireResource(resource);
        requireOwner(owner);
        return requireTtl(ttl, maxTtl).toMillis();
    }

    /**
     * Checks a release's arguments.
     *
     * @param resource the resource
     * @param owner the owner token
     * @param minHold how long after acquisition the lock stays held at least
     * @return the minimum hold in milliseconds
     * @throws IllegalArgumentException naming the value at fault
     */
    public long release(@Nullable String resource, @Nullable String owner, @Nullable Duration minHold) {
        requireResource(resource);
        requireOwner(owner);
        return requireDuration("minHold", minHold, Duration.ZERO, maxTtl).toMillis();
    }

    /**
     * Checks a batch renewal's arguments ({@link BatchRenewal}).
     *
     * @param leases the acquisitions to renew
     * @param ttl the lease length
     * @return the lease length in milliseconds
     * @throws IllegalArgumentException naming the value at fault
     */
    public long leases(@Nullable Collection<LeaseKey> leases, @Nullable Duration ttl) {
        if (leases == null) {
            throw new IllegalArgumentException("leases must not be null");
        }
        long ttlMillis = requireTtl(ttl, maxTtl).toMillis();
        for (LeaseKey lease : leases) {
            if (lease == null) {
                throw new IllegalArgumentException("leases must not contain null");
            }
            requireResource(lease.resource());
            requireOwner(lease.owner());
        }
        return ttlMillis;
    }

    /**
     * Checks a clean-up's retention ({@link LockRepository#deleteExpired}).
     *
     * @param retention how long an expired row is kept
     * @return the retention in milliseconds
     * @throws IllegalArgumentException naming the value at fault
     */
    public static long retention(@Nullable Duration retention) {
        return requireDuration("retention", retention, MIN_RETENTION, MAX_DURATION).toMillis();
    }

    /**
     * Checks a slot claim's arguments ({@link SlotStore#claimSlot}).
     *
     * @param job the job
     * @param owner the owner token holding the job's lock
     * @param slot the slot
     * @throws IllegalArgumentException naming the value at fault
     */
    public static void slotClaim(@Nullable String job, @Nullable String owner, @Nullable Instant slot) {
        requireName("job", job);
        requireOwner(owner);
        requireSlot(slot);
    }

    /**
     * Checks the arguments of the end of a slot's run ({@link SlotStore#finishSlot}).
     *
     * @param job the job
     * @param slot the slot
     * @param outcome how the run ended
     * @throws IllegalArgumentException naming the value at fault
     */
    public static void slotFinish(@Nullable String job, @Nullable Instant slot, @Nullable SlotRunOutcome outcome) {
        requireName("job", job);
        requireSlot(slot);
        if (outcome == null) {
            throw new IllegalArgumentException("outcome must not be null");
        }
    }

    /**
     * Checks a read of slot runs ({@link SlotStore#recentSlotRuns}).
     *
     * @param job the job, or {@code null} for every job
     * @param limit how many runs at most
     * @throws IllegalArgumentException naming the value at fault
     */
    public static void slotRuns(@Nullable String job, int limit) {
        if (job != null) {
            requireName("job", job);
        }
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
    }

    private static void requireSlot(@Nullable Instant slot) {
        if (slot == null) {
            throw new IllegalArgumentException("slot must not be null");
        }
    }

    /**
     * Checks a resource name: 1 to 255 characters, not blank, no control characters.
     *
     * @param resource the name to check
     * @return the same name
     * @throws IllegalArgumentException naming the problem and the value
     */
    public static String requireResource(@Nullable String resource) {
        return requireName("resource", resource);
    }

    /**
     * Checks an owner token with the same rules as a resource name.
     *
     * @param owner the token to check
     * @return the same token
     * @throws IllegalArgumentException naming the problem and the value
     */
    public static String requireOwner(@Nullable String owner) {
        return requireName("owner", owner);
    }

    /**
     * Checks a lease length: at least one millisecond, at most {@code maxTtl}, and whole milliseconds.
     *
     * @param ttl the lease length to check
     * @param maxTtl the largest lease allowed
     * @return the same duration
     * @throws IllegalArgumentException naming the problem and the value
     */
    public static Duration requireTtl(@Nullable Duration ttl, Duration maxTtl) {
        return requireWholeMillis("ttl", requireDuration("ttl", ttl, MIN_TTL, maxTtl));
    }

    /**
     * Checks that a duration has no fraction of a millisecond: the lock table keeps time in milliseconds, and a
     * holder must never believe in a lease longer than the database keeps it.
     *
     * @param name what the duration is, for the message
     * @param value the duration to check
     * @return the same duration
     * @throws IllegalArgumentException naming the value
     */
    public static Duration requireWholeMillis(String name, Duration value) {
        if (value.getNano() % 1_000_000 != 0) {
            throw new IllegalArgumentException(name + " must be a whole number of milliseconds, got " + value);
        }
        return value;
    }

    /**
     * Checks a duration against bounds.
     *
     * @param name what the duration is, for the message
     * @param value the duration to check
     * @param min the smallest allowed value
     * @param max the largest allowed value
     * @return the same duration
     * @throws IllegalArgumentException naming the problem and the value
     */
    public static Duration requireDuration(String name, @Nullable Duration value, Duration min, Duration max) {
        if (value == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
        if (value.compareTo(min) < 0) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", got " + value);
        }
        if (value.compareTo(max) > 0) {
            throw new IllegalArgumentException(name + " must be at most " + max + ", got " + value);
        }
        return value;
    }

    private static String requireName(String what, @Nullable String value) {
        if (value == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
        if (value.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank, got '" + value + "'");
        }
        if (value.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException(what + " must be at most " + MAX_NAME_LENGTH + " characters, got "
                    + value.length() + ": '" + value.substring(0, 40) + "…'");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean paired = Character.isHighSurrogate(c) && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1));
            if (paired) {
                i++;
                continue;
            }
            if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(String.format(
                        "%s must be valid Unicode, found an unpaired surrogate U+%04X at index %d", what, (int) c, i));
            }
            if (Character.isISOControl(c)) {
                throw new IllegalArgumentException(String.format(
                        "%s must not contain control characters, found U+%04X at index %d of '%s'",
                        what, (int) c, i, value.replaceAll("\\p{Cntrl}", "?")));
            }
        }
        return value;
    }
}
