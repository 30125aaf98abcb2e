package io.distlock.spring.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which Spring Boot versions the starter accepts. Written once for both starters: each runs it on its own Spring Boot
 * generation and checks the versions of the other one through {@link SupportedSpringBoot}.
 */
class SpringBootGenerationAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(SpringBootGenerationAutoConfiguration.class));

    @Test
    void startsOnTheSpringBootItRunsOn() {
        assertThat(SpringBootVersion.getVersion()).startsWith(SupportedSpringBoot.MAJOR + ".");
        assertThat(SpringBootGenerationAutoConfiguration.supports(SpringBootVersion.getVersion())).isTrue();
        runner.run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void acceptsEveryLaterMinorOfItsGeneration() {
        int major = SupportedSpringBoot.MAJOR;
        int minor = SupportedSpringBoot.LOWEST_MINOR;
        assertThat(SpringBootGenerationAutoConfiguration.supports(major + "." + minor + ".0")).isTrue();
        assertThat(SpringBootGenerationAutoConfiguration.supports(major + "." + (minor + 1) + ".0-RC1")).isTrue();
        assertThat(SpringBootGenerationAutoConfiguration.supports(null)).as("no version known").isTrue();
    }

    @Test
    void refusesOtherGenerationsAndEarlierMinors() {
        int major = SupportedSpringBoot.MAJOR;
        assertThat(SpringBootGenerationAutoConfiguration.supports((major - 1) + ".5.7")).isFalse();
        assertThat(SpringBootGenerationAutoConfiguration.supports((major + 1) + ".0.0")).isFalse();
        assertThat(SpringBootGenerationAutoConfiguration.supports("3.4.9")).isFalse();
        assertThat(SpringBootGenerationAutoConfiguration.supports("nonsense")).isFalse();
    }

    @Test
    void failureNamesTheSupportedGenerationsAndTheArtifactToUseInstead() {
        UnsupportedSpringBootException failure = new UnsupportedSpringBootException("2.7.18");
        assertThat(failure.getMessage()).isEqualTo(SupportedSpringBoot.ARTIFACT + " runs on "
                + SupportedSpringBoot.VERSIONS + ", not on Spring Boot 2.7.18: " + SupportedSpringBoot.OTHER);
        FailureAnalysis analysis = new UnsupportedSpringBootFailureAnalyzer()
            .analyze(new IllegalStateException("wrapped", failure));
        assertThat(analysis.getDescription()).isEqualTo(failure.getMessage());
        assertThat(analysis.getAction()).contains("io.distlock:lock-spring-boot-starter on Spring Boot 4.0 and 4.1",
                "io.distlock:lock-spring-boot3-starter on Spring Boot 3.5");
    }
}
