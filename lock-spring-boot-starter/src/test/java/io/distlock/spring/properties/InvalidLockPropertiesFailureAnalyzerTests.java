package io.distlock.spring.properties;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.distlock.spring.StartupFailures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The failure analysis of wrong {@code distributed-lock.*} properties, from the real failure of a context start and
 * as Spring Boot prints it when an application started from its configuration file fails.
 */
@ExtendWith(OutputCaptureExtension.class)
class InvalidLockPropertiesFailureAnalyzerTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DistributedLockPropertiesAutoConfiguration.class));

    @Test
    void unknownKeysAndUnitlessDurationsAreListedWithWhatToDo() {
        runner.withPropertyValues("distributed-lock.tabel-name=x", "distributed-lock.default-ttl=30").run(context -> {
            FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getCause()).isInstanceOf(InvalidLockPropertiesException.class);
            assertThat(analysis.getDescription()).isEqualTo("2 distributed-lock properties are wrong:\n\n"
                    + "    - distributed-lock.tabel-name (from property source \"test\") is not a distributed-lock "
                    + "property; did you mean distributed-lock.table-name?\n"
                    + "    - distributed-lock.default-ttl = '30' (from property source \"test\") has no unit: a "
                    + "number alone is not read as milliseconds; use ISO-8601 such as PT30S, or a number with a unit "
                    + "such as 30s or 500ms (ns, us, ms, s, m, h, d)");
            assertThat(analysis.getAction()).isEqualTo("Correct or remove each unknown key; the known keys are those "
                    + "of the configuration metadata, listed in the property table of docs/spring-boot.md. Give each duration a "
                    + "unit: ISO-8601 such as PT30S, or a number with a unit such as 30s or 500ms. Set "
                    + "distributed-lock.strict-properties=false to log unknown keys at WARN instead of failing the "
                    + "start.");
        });
    }

    @Test
    void aUnitlessDurationAloneSaysNothingAboutStrictProperties() {
        runner.withPropertyValues("distributed-lock.max-hold=3600").run(context -> {
            FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).startsWith("A distributed-lock property is wrong:\n\n    - "
                    + "distributed-lock.max-hold = '3600'");
            assertThat(analysis.getAction()).isEqualTo("Give each duration a unit: ISO-8601 such as PT30S, or a "
                    + "number with a unit such as 30s or 500ms.");
        });
    }

    @Test
    void anApplicationStartedFromItsConfigurationFilePrintsTheKeyWithItsFileAndLine(@TempDir Path dir,
            CapturedOutput output) throws IOException {
        Path file = Files.writeString(dir.resolve("application.properties"),
                "spring.main.banner-mode=off\ndistributed-lock.tabel-name=ops_locks\n");
        SpringApplicationBuilder application = new SpringApplicationBuilder(Application.class)
            .web(WebApplicationType.NONE)
            .properties("spring.config.location=file:" + file);
        assertThatExceptionOfType(InvalidLockPropertiesException.class).isThrownBy(application::run);
        assertThat(output).contains("APPLICATION FAILED TO START")
            .contains("A distributed-lock property is wrong:")
            .contains("- distributed-lock.tabel-name (from URL [file:" + file + "] - 2:29) is not a "
                    + "distributed-lock property; did you mean distributed-lock.table-name?")
            .contains("Set distributed-lock.strict-properties=false to log unknown keys at WARN instead of failing "
                    + "the start.");
    }

    /** An application with nothing but the configuration checks. */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(DistributedLockPropertiesAutoConfiguration.class)
    static class Application {
    }
}
