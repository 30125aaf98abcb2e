package io.distlock.spring.properties;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.distlock.core.LockArguments;
import io.distlock.core.WatchdogSettings;
import io.distlock.spring.support.DurationText;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;

/**
 * The bounds of the {@code distributed-lock.*} values that have them — lease and hold durations, clean-up and
 * statement times, the watchdog's threads and renew ratio — checked all at once before any bean is created, so that
 * every value out of its range is told in one failure instead of one per restart. Each bound is the one the library
 * applies when it uses the value ({@link LockArguments}, {@link WatchdogSettings}). A value that does not convert
 * is left to the binding, which tells it with Spring Boot's message.
 */
final class LockPropertyRanges {

    private LockPropertyRanges() {
    }

    /**
     * The values out of their ranges.
     *
     * @param binder reads the values as the properties classes bind them
     * @param describe names a property with its value and origin, for messages
     * @param skipped properties already told wrong (a duration without a unit), not checked again
     * @return one message per value out of its range
     */
    static List<String> check(Binder binder, Function<ConfigurationPropertyName, String> describe,
            List<ConfigurationPropertyName> skipped) {
        Checks checks = new Checks(binder, describe, skipped);
        Duration maxTtl = checks.duration("max-ttl", LockArguments.MIN_TTL, LockArguments.MAX_DURATION);
        checks.duration("default-ttl", LockArguments.MIN_TTL, maxTtl != null ? maxTtl : LockArguments.DEFAULT_MAX_TTL);
        checks.duration("max-hold", LockArguments.MIN_TTL, LockArguments.MAX_DURATION);
        if (!Boolean.FALSE.equals(checks.value("cleanup.enabled", Boolean.class))) {
            // The clean-up's times are read only while it runs.
            checks.duration("cleanup.retention", LockArguments.MIN_RETENTION, LockArguments.MAX_DURATION);
            checks.duration("cleanup.interval", LockArguments.MIN_TTL, LockArguments.MAX_DURATION);
        }
        checks.duration("jdbc.statement-timeout", Duration.ofSeconds(1), Duration.ofDays(1));
        Integer threads = checks.value("watchdog.threads", Integer.class);
        if (threads != null && (threads < 1 || threads > WatchdogSettings.MAX_THREADS)) {
            checks.problem("watchdog.threads", "must be between 1 and " + WatchdogSettings.MAX_THREADS);
        }
        Double ratio = checks.value("watchdog.renew-ratio", Double.class);
        if (ratio != null && !(ratio > 0 && ratio <= WatchdogSettings.MAX_RENEW_RATIO)) {
            checks.problem("watchdog.renew-ratio", "must be above 0 and at most " + WatchdogSettings.MAX_RENEW_RATIO);
        }
        return checks.problems;
    }

    /** The checks of one environment, and what they found. */
    private static final class Checks {

        private final Binder binder;

        private final Function<ConfigurationPropertyName, String> describe;

        private final List<ConfigurationPropertyName> skipped;

        private final List<String> problems = new ArrayList<>();

        Checks(Binder binder, Function<ConfigurationPropertyName, String> describe,
                List<ConfigurationPropertyName> skipped) {
            this.binder = binder;
            this.describe = describe;
            this.skipped = skipped;
        }

        /** A duration, checked against its bounds and whole milliseconds; {@code null} when unset or unreadable. */
        @Nullable Duration duration(String key, Duration min, Duration max) {
            String text = value(key, String.class);
            Duration value = text != null && !DurationText.lacksUnit(text) ? value(key, Duration.class) : null;
            if (value == null) {
                // Unset, or without a unit, which the unit check or the binding tells.
                return null;
            }
            if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
                problem(key, "must be at least " + min + " and at most " + max);
                return null;
            }
            if (value.getNano() % 1_000_000 != 0) {
                problem(key, "must be a whole number of milliseconds, as the lock stores keep time");
                return null;
            }
            return value;
        }

        <T> @Nullable T value(String key, Class<T> type) {
            ConfigurationPropertyName name = name(key);
            if (skipped.contains(name)) {
                return null;
            }
            try {
                return binder.bind(name, Bindable.of(type)).orElse(null);
            }
            catch (BindException unreadable) {
                return null;
            }
        }

        void problem(String key, String reason) {
            problems.add(describe.apply(name(key)) + " " + reason);
        }

        private static ConfigurationPropertyName name(String key) {
            return ConfigurationPropertyName.of("distributed-lock." + key);
        }
    }
}
