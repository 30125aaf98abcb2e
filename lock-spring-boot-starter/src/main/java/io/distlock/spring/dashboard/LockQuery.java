package io.distlock.spring.dashboard;

import java.util.Comparator;
import java.util.Locale;

import io.distlock.core.LockRecord;
import org.jspecify.annotations.Nullable;

/**
 * Which locks a page shows: a filter on the name, an order and a page. Each parameter is checked, and a wrong one is
 * refused naming the parameter, the value and what is accepted.
 *
 * @param filter text the resource or the holding instance contains, ignoring case; empty for every lock
 * @param sort the order's key
 * @param descending whether the order is reversed
 * @param offset how many matching locks come before the page
 * @param limit how many locks the page shows at most
 */
record LockQuery(String filter, Sort sort, boolean descending, int offset, int limit) {

    /** The most locks one page shows. */
    static final int MAX_LIMIT = 500;

    /** The page size when none is asked for. */
    static final int DEFAULT_LIMIT = 50;

    /**
     * Reads the query parameters of a request.
     *
     * @param filter {@code q}
     * @param sort {@code sort}: {@code age}, {@code expires}, {@code resource} or {@code token}; default {@code age}
     * @param order {@code order}: {@code asc} or {@code desc}; default {@code desc} for age, else {@code asc}
     * @param offset {@code offset}, 0 or more; default 0
     * @param limit {@code limit}, 1 to {@value #MAX_LIMIT}; default {@value #DEFAULT_LIMIT}
     * @return the query
     * @throws IllegalArgumentException naming the parameter at fault
     */
    static LockQuery parse(@Nullable String filter, @Nullable String sort, @Nullable String order,
            @Nullable String offset, @Nullable String limit) {
        String text = filter == null ? "" : filter.strip();
        if (text.length() > 255) {
            throw new IllegalArgumentException("q must be at most 255 characters, got " + text.length());
        }
        Sort key = Sort.parse(sort);
        boolean descending;
        if (order == null || order.isBlank()) {
            descending = key == Sort.AGE;
        }
        else if (order.equals("asc") || order.equals("desc")) {
            descending = order.equals("desc");
        }
        else {
            throw new IllegalArgumentException("order must be asc or desc, got '" + shorten(order) + "'");
        }
        return new LockQuery(text.toLowerCase(Locale.ROOT), key, descending,
                number("offset", offset, 0, 0, Integer.MAX_VALUE), number("limit", limit, DEFAULT_LIMIT, 1, MAX_LIMIT));
    }

    boolean matches(LockRecord record, String instance) {
        return filter.isEmpty() || record.resource().toLowerCase(Locale.ROOT).contains(filter)
                || instance.toLowerCase(Locale.ROOT).contains(filter);
    }

    Comparator<LockRecord> order() {
        Comparator<LockRecord> byResource = Comparator.comparing(LockRecord::resource);
        Comparator<LockRecord> order = switch (sort) {
            // Held longest first is "age descending": the earlier the acquisition, the older the lock.
            case AGE -> Comparator.comparing(LockRecord::acquiredAt).reversed().thenComparing(byResource);
            case EXPIRES -> Comparator.comparing(LockRecord::expiresAt).thenComparing(byResource);
            case RESOURCE -> byResource;
            case TOKEN -> Comparator.comparingLong(LockRecord::token).thenComparing(byResource);
        };
        return descending ? order.reversed() : order;
    }

    private static int number(String name, @Nullable String value, int fallback, int min, int max) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(value.strip());
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        }
        catch (NumberFormatException ex) {
            // Said below.
        }
        throw new IllegalArgumentException(name + " must be a whole number from " + min + " to " + max + ", got '"
                + shorten(value) + "'");
    }

    private static String shorten(String value) {
        return value.length() <= 40 ? value : value.substring(0, 40) + "…";
    }

    /** The keys locks are ordered by. */
    enum Sort {

        /** How long the lock has been held. */
        AGE,

        /** When the lease runs out. */
        EXPIRES,

        /** The resource's name. */
        RESOURCE,

        /** The fencing token. */
        TOKEN;

        static Sort parse(@Nullable String value) {
            if (value == null || value.isBlank()) {
                return AGE;
            }
            for (Sort sort : values()) {
                if (sort.name().toLowerCase(Locale.ROOT).equals(value)) {
                    return sort;
                }
            }
            throw new IllegalArgumentException("sort must be one of age, expires, resource, token, got '"
                    + shorten(value) + "'");
        }
    }
}
