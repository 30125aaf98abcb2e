package io.distlock.spring.autoconfigure;

/**
 * The Spring Boot generation this artifact is built for, Spring Boot 4, and the one type whose name differs between
 * generations that a shared auto-configuration refers to. Its counterpart for Spring Boot 3 ships in
 * {@code lock-spring-boot3-starter}, with the same name.
 */
public final class SupportedSpringBoot {

    /** This artifact. */
    public static final String ARTIFACT = "io.distlock:lock-spring-boot-starter";

    /** The Spring Boot versions this artifact is built and tested for. */
    public static final String VERSIONS = "Spring Boot 4.0 and 4.1";

    /** The artifact for the other Spring Boot generation. */
    public static final String OTHER = "on Spring Boot 3.5 use io.distlock:lock-spring-boot3-starter";

    /** Spring Boot's health indicator type on this generation. */
    public static final String HEALTH_INDICATOR = "org.springframework.boot.health.contributor.HealthIndicator";

    static final int MAJOR = 4;

    static final int LOWEST_MINOR = 0;

    private SupportedSpringBoot() {
    }
}
