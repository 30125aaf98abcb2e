package io.distlock.spring.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because the distlock starter does not match the application's Spring Boot
 * generation, and names the artifact to use instead.
 */
class UnsupportedSpringBootFailureAnalyzer extends AbstractFailureAnalyzer<UnsupportedSpringBootException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedSpringBootException cause) {
        return new FailureAnalysis(cause.getMessage(), "Depend on the distlock starter of your Spring Boot "
                + "generation: io.distlock:lock-spring-boot-starter on Spring Boot 4.0 and 4.1, "
                + "io.distlock:lock-spring-boot3-starter on Spring Boot 3.5.", cause);
    }
}
