package io.distlock.spring.support;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because {@code @DistributedLock} or {@code @OncePerSlot} declarations are wrong,
 * listing each problem.
 */
class InvalidLockDeclarationFailureAnalyzer extends AbstractFailureAnalyzer<InvalidLockDeclarationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidLockDeclarationException cause) {
        int count = cause.problems().size();
        String description = (count == 1 ? "A lock declaration is wrong" : count + " lock declarations are wrong")
                + ":\n\n    - " + String.join("\n    - ", cause.problems());
        return new FailureAnalysis(description, "Correct each attribute or method named above. Durations are "
                + "ISO-8601 (PT30S) or a number with a unit (30s, 500ms); a number alone is refused. Resource "
                + "templates refer to parameters by name (#{#customer}) or position (#{#p0}), to beans as @name and "
                + "to properties as ${...}, and render values with a stable toString(). Guarded methods are public, "
                + "not static, and not final on class-proxied beans; @OncePerSlot methods are @Scheduled with a cron "
                + "or a fixed rate.", cause);
    }
}
