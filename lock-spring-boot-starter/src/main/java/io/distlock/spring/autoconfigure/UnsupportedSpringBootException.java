package io.distlock.spring.autoconfigure;

/**
 * The application runs on a Spring Boot generation the distlock starter on its class path is not built for: its
 * auto-configuration would be skipped or broken there, and guarded methods would run without their locks.
 */
final class UnsupportedSpringBootException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    UnsupportedSpringBootException(String bootVersion) {
        super(SupportedSpringBoot.ARTIFACT + " runs on " + SupportedSpringBoot.VERSIONS + ", not on Spring Boot "
                + bootVersion + ": " + SupportedSpringBoot.OTHER);
    }
}
