package io.distlock.spring.properties;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because {@code distributed-lock.*} keys are unknown or durations lack a unit.
 */
class InvalidLockPropertiesFailureAnalyzer extends AbstractFailureAnalyzer<InvalidLockPropertiesException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidLockPropertiesException cause) {
        List<String> problems = cause.problems();
        String description = (problems.size() == 1 ? "A distributed-lock property is wrong"
                : problems.size() + " distributed-lock properties are wrong") + ":\n\n    - "
                + String.join("\n    - ", problems);
        List<String> actions = new ArrayList<>();
        if (!cause.unknownKeys().isEmpty()) {
            actions.add("Correct or remove each unknown key; the known keys are those of the configuration metadata, "
                    + "listed in the property table of docs/spring-boot.md.");
        }
        if (!cause.unitlessDurations().isEmpty()) {
            actions.add("Give each duration a unit: ISO-8601 such as PT30S, or a number with a unit such as 30s or "
                    + "500ms.");
        }
        if (!cause.outOfRange().isEmpty()) {
            actions.add("Bring each value within the range its message names (docs/spring-boot.md describes each "
                    + "property).");
        }
        if (!cause.unknownKeys().isEmpty()) {
            actions.add(InvalidLockPropertiesException.DOWNGRADE);
        }
        return new FailureAnalysis(description, String.join(" ", actions), cause);
    }
}
