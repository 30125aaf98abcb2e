package io.distlock.spring.jdbc;

import io.distlock.spring.StartupFailures;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An enum property with a value it does not have fails the start naming the property and the accepted values:
 * {@code distributed-lock.time-source} as a binding error, which Spring Boot's own failure analysis completes with
 * the valid values; {@code distributed-lock.jdbc.initialize-schema}, read by a condition before any binding, as an
 * invalid property value.
 */
class InvalidEnumPropertyTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class))
        .withPropertyValues("distributed-lock.cleanup.enabled=false");

    @Test
    void anUnknownSchemaInitializationModeNamesThePropertyAndTheAcceptedValues() {
        runner.withPropertyValues("distributed-lock.jdbc.initialize-schema=sometimes").run(context -> {
            assertThat(context).hasFailed();
            assertThat(StartupFailures.messages(context.getStartupFailure())).contains("Property "
                    + "distributed-lock.jdbc.initialize-schema with value 'sometimes' is invalid: The lock table's "
                    + "initialisation mode is one of embedded (the default: on embedded databases only), always or "
                    + "never");
            FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getCause()).isInstanceOf(InvalidConfigurationPropertyValueException.class);
            assertThat(analysis.getDescription()).startsWith("Invalid value 'sometimes' for configuration property "
                    + "'distributed-lock.jdbc.initialize-schema'")
                .endsWith("embedded (the default: on embedded databases only), always or never");
        });
    }

    @Test
    void initializationModesBindInAnyCase() {
        runner.withPropertyValues("distributed-lock.jdbc.initialize-schema=Never",
                "distributed-lock.startup-check=lazy", "distributed-lock.dialect=h2")
            .run(context -> assertThat(context).hasNotFailed()
                .doesNotHaveBean(DistributedLockDataSourceScriptDatabaseInitializer.class));
    }

    @Test
    void anUnknownTimeSourceNamesThePropertyAndTheAcceptedValues() {
        runner.withPropertyValues("distributed-lock.time-source=local").run(context -> {
            assertThat(context).hasFailed();
            assertThat(StartupFailures.messages(context.getStartupFailure())).contains("Failed to bind properties "
                    + "under 'distributed-lock.time-source' to io.distlock.core.TimeSource");
            FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("Property: distributed-lock.time-source")
                .contains("Value: \"local\"");
            assertThat(analysis.getAction()).contains("The following values are valid:").contains("APPLICATION")
                .contains("DATABASE");
        });
    }
}
