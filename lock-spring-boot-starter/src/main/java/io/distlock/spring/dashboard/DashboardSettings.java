package io.distlock.spring.dashboard;

import java.time.Duration;
import java.util.regex.Pattern;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The dashboard's properties, checked once at start-up: a value out of its range fails the start naming the property,
 * the value and what is accepted.
 *
 * @param path the page's path, such as {@code /distlock}
 * @param adminEnabled whether the admin mode is on
 * @param adminRole the role of the admin mode
 * @param allowUnprotectedAdmin whether the admin mode may run without Spring Security
 * @param refreshInterval time between two refreshes of the page
 * @param storeTimeout longest wait for the lock store
 * @param eventCapacity events kept in memory
 * @param expiringWithin time left below which a lock is about to expire
 * @param longHeldAfter hold time above which a lock is held long
 */
record DashboardSettings(String path, boolean adminEnabled, String adminRole, boolean allowUnprotectedAdmin,
        Duration refreshInterval, Duration storeTimeout, int eventCapacity, Duration expiringWithin,
        Duration longHeldAfter) {

    private static final String PREFIX = "distributed-lock.dashboard.";

    /** Segments of letters, digits, {@code -}, {@code _}, {@code ~} and inner dots: no placeholders, no {@code ..}. */
    private static final Pattern PATH = Pattern.compile("(/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+");

    private static final Pattern ROLE = Pattern.compile("[A-Za-z0-9_.:-]{1,100}");

    /**
     * Checks the properties.
     *
     * @param properties the bound properties
     * @return the settings
     * @throws InvalidConfigurationPropertyValueException naming the first property out of range
     */
    static DashboardSettings of(DashboardProperties properties) {
        String path = properties.getPath();
        if (path == null || !PATH.matcher(path).matches() || path.endsWith(".")) {
            throw invalid("path", path, "The dashboard's path starts with '/' and has one or more segments of "
                    + "letters, digits, '-', '_', '~' and inner dots, without a trailing '/', such as /distlock");
        }
        String role = properties.getAdminRole();
        if (role == null || !ROLE.matcher(role).matches()) {
            throw invalid("admin-role", role, "The admin role is 1 to 100 letters, digits, '_', '.', ':' or '-', "
                    + "such as DISTLOCK_ADMIN (Spring Security's ROLE_ prefix is added to it)");
        }
        return new DashboardSettings(path, properties.isAdminEnabled(), role, properties.isAllowUnprotectedAdmin(),
                within("refresh-interval", properties.getRefreshInterval(), Duration.ofMillis(250),
                        Duration.ofMinutes(5)),
                within("store-timeout", properties.getStoreTimeout(), Duration.ofMillis(100), Duration.ofMinutes(1)),
                capacity(properties.getEventCapacity()),
                within("expiring-within", properties.getExpiringWithin(), Duration.ZERO, Duration.ofDays(1)),
                within("long-held-after", properties.getLongHeldAfter(), Duration.ofSeconds(1), Duration.ofDays(365)));
    }

    /**
     * How old the data of the lock store may be when a request reads it: half the refresh interval, at most a
     * second, so that many open pages cost the store at most one read a second between them.
     *
     * @return the longest age of a snapshot that is used again
     */
    Duration snapshotMaxAge() {
        Duration half = refreshInterval.dividedBy(2);
        return half.compareTo(Duration.ofSeconds(1)) < 0 ? half : Duration.ofSeconds(1);
    }

    private static int capacity(int capacity) {
        if (capacity < 1 || capacity > 10_000) {
            throw invalid("event-capacity", capacity, "The dashboard keeps 1 to 10000 events");
        }
        return capacity;
    }

    private static Duration within(String name, Duration value, Duration min, Duration max) {
        if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw invalid(name, value, "It must be between " + min + " and " + max);
        }
        return value;
    }

    private static InvalidConfigurationPropertyValueException invalid(String name, Object value, String reason) {
        return new InvalidConfigurationPropertyValueException(PREFIX + name, value, reason);
    }
}
