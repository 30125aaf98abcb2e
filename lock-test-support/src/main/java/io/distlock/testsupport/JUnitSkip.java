package io.distlock.testsupport;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The one class here that uses JUnit: skips or fails the calling test when its database cannot be reached. Loaded
 * only then, by {@link TestDatabase#assumeAvailable()}, so that the torture test and the benchmarks run without
 * JUnit on their class path.
 */
final class JUnitSkip {

    private JUnitSkip() {
    }

    /**
     * Fails the calling test when the database is required, else aborts it with a notice on standard error.
     *
     * @param message what is unreachable, and why
     * @param required whether {@code DISTLOCK_TEST_REQUIRE} demands the database
     */
    static void skipOrFail(String message, boolean required) {
        if (required) {
            Assertions.fail(message + " but DISTLOCK_TEST_REQUIRE demands it");
        }
        System.err.println("NOTICE: " + message + ": its tests are skipped");
        Assumptions.abort(message + ": skipped");
    }
}
