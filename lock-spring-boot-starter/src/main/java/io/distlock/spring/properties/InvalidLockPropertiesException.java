package io.distlock.spring.properties;

import java.util.ArrayList;
import java.util.List;

/**
 * Keys or values under {@code distributed-lock.*} that would be ignored or misread: keys no properties class binds
 * (a typo such as {@code distributed-lock.tabel-name}), durations without a unit, and values out of their ranges
 * (a negative {@code max-hold}, {@code watchdog.threads=0}). Thrown before any bean is
 * created, so that the application does not start with a setting it did not mean.
 */
final class InvalidLockPropertiesException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** What the message says when unknown keys are among the problems. */
    static final String DOWNGRADE = "Set distributed-lock.strict-properties=false to log unknown keys at WARN "
            + "instead of failing the start.";

    private final List<String> unknownKeys;

    private final List<String> unitlessDurations;

    private final List<String> outOfRange;

    /**
     * Creates the exception.
     *
     * @param unknownKeys one message per unknown key
     * @param unitlessDurations one message per duration without a unit
     */
    InvalidLockPropertiesException(List<String> unknownKeys, List<String> unitlessDurations) {
        this(unknownKeys, unitlessDurations, List.of());
    }

    /**
     * Creates the exception.
     *
     * @param unknownKeys one message per unknown key
     * @param unitlessDurations one message per duration without a unit
     * @param outOfRange one message per value out of its range
     */
    InvalidLockPropertiesException(List<String> unknownKeys, List<String> unitlessDurations, List<String> outOfRange) {
        super(message(all(unknownKeys, unitlessDurations, outOfRange), !unknownKeys.isEmpty()));
        this.unknownKeys = List.copyOf(unknownKeys);
        this.unitlessDurations = List.copyOf(unitlessDurations);
        this.outOfRange = List.copyOf(outOfRange);
    }

    /**
     * Every problem, unknown keys first.
     *
     * @return one message per problem
     */
    List<String> problems() {
        return all(unknownKeys, unitlessDurations, outOfRange);
    }

    /**
     * The values out of their ranges.
     *
     * @return one message per property
     */
    List<String> outOfRange() {
        return outOfRange;
    }

    /**
     * The unknown keys, which {@code distributed-lock.strict-properties=false} would only log.
     *
     * @return one message per key
     */
    List<String> unknownKeys() {
        return unknownKeys;
    }

    /**
     * The durations without a unit.
     *
     * @return one message per property
     */
    List<String> unitlessDurations() {
        return unitlessDurations;
    }

    @SafeVarargs
    private static List<String> all(List<String>... kinds) {
        List<String> all = new ArrayList<>();
        for (List<String> kind : kinds) {
            all.addAll(kind);
        }
        return all;
    }

    private static String message(List<String> all, boolean unknownKeys) {
        String problems = all.size() == 1 ? all.get(0)
                : all.size() + " distributed-lock properties are wrong:\n - " + String.join("\n - ", all);
        return unknownKeys ? problems + "\n" + DOWNGRADE : problems;
    }
}
