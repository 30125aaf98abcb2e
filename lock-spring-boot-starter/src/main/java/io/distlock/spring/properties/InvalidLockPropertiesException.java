package io.distlock.spring.properties;

import java.util.ArrayList;
import java.util.List;

/**
 * Keys or values under {@code distributed-lock.*} that would be ignored or misread: keys no properties class binds
 * (a typo such as {@code distributed-lock.tabel-name}), and durations without a unit. Thrown before any bean is
 * created, so that the application does not start with a setting it did not mean.
 */
final class InvalidLockPropertiesException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** What the message says when unknown keys are among the problems. */
    static final String DOWNGRADE = "Set distributed-lock.strict-properties=false to log unknown keys at WARN "
            + "instead of failing the start.";

    private final List<String> unknownKeys;

    private final List<String> unitlessDurations;

    /**
     * Creates the exception.
     *
     * @param unknownKeys one message per unknown key
     * @param unitlessDurations one message per duration without a unit
     */
    InvalidLockPropertiesException(List<String> unknownKeys, List<String> unitlessDurations) {
        super(message(unknownKeys, unitlessDurations));
        this.unknownKeys = List.copyOf(unknownKeys);
        this.unitlessDurations = List.copyOf(unitlessDurations);
    }

    /**
     * Every problem, unknown keys first.
     *
     * @return one message per problem
     */
    List<String> problems() {
        List<String> all = new ArrayList<>(unknownKeys);
        all.addAll(unitlessDurations);
        return all;
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

    private static String message(List<String> unknownKeys, List<String> unitlessDurations) {
        List<String> all = new ArrayList<>(unknownKeys);
        all.addAll(unitlessDurations);
        String problems = all.size() == 1 ? all.get(0)
                : all.size() + " distributed-lock properties are wrong:\n - " + String.join("\n - ", all);
        return unknownKeys.isEmpty() ? problems : problems + "\n" + DOWNGRADE;
    }
}
