package io.distlock.core;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Checks the arguments of lock operations before any SQL runs, so that bad input fails with a message naming the
 * value at fault and never reaches the database.
 */
public final class LockArguments {

    /** Longest resource name and owner token the lock table stores. */
    public static final int MAX_NAME_LENGTH = 255;

    /** Shortest lease the database clocks can express reliably. */
    public static final Duration MIN_TTL = Duration.ofMillis(1);

    private LockArguments() {
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
