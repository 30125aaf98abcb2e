package io.distlock.spring.properties;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code distributed-lock.*} keys that no properties class declares, and durations without a unit, fail the start
 * before any bean is created, with a message naming the key and what was probably meant.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockPropertiesValidatorTests {

    private static final String TEST = " (from property source \"test\")";

    private static final String UNITLESS = "has no unit: a number alone is not read as milliseconds; use ISO-8601 "
            + "such as PT30S, or a number with a unit such as 30s or 500ms (ns, us, ms, s, m, h, d)";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class, DistributedLockPropertiesAutoConfiguration.class))
        .withPropertyValues("distributed-lock.cleanup.enabled=false");

    @Test
    void aTypoFailsTheStartNamingTheKeyAndTheNearestKnownKey() {
        runner.withPropertyValues("distributed-lock.tabel-name=ops_locks").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).isInstanceOf(InvalidLockPropertiesException.class)
                .hasMessage("distributed-lock.tabel-name" + TEST + " is not a distributed-lock property; did you mean "
                        + "distributed-lock.table-name?\n" + InvalidLockPropertiesException.DOWNGRADE);
        });
    }

    @Test
    void aKeyInTheWrongGroupIsPointedToItsGroup() {
        runner.withPropertyValues("distributed-lock.renew-ratio=0.5", "distributed-lock.initialize-schema=always")
            .run(context -> assertThat(context.getStartupFailure()).hasMessageStartingWith(
                    "2 distributed-lock properties are wrong:\n"
                            + " - distributed-lock.renew-ratio" + TEST + " is not a distributed-lock property; "
                            + "did you mean distributed-lock.watchdog.renew-ratio?\n"
                            + " - distributed-lock.initialize-schema" + TEST + " is not a distributed-lock property; "
                            + "did you mean distributed-lock.jdbc.initialize-schema?"));
    }

    @Test
    void valuesOutOfTheirRangesAreAllReportedInOneFailureEachNamingItsPropertyAndValue() {
        runner.withPropertyValues("distributed-lock.default-ttl=0s", "distributed-lock.max-hold=-1s",
                "distributed-lock.max-ttl=P4000D", "distributed-lock.watchdog.threads=0",
                "distributed-lock.watchdog.renew-ratio=1.5", "distributed-lock.cleanup.enabled=true",
                "distributed-lock.cleanup.retention=30s", "distributed-lock.cleanup.interval=0s",
                "distributed-lock.jdbc.statement-timeout=500ms")
            .run(context -> {
                assertThat(context.getStartupFailure()).isInstanceOf(InvalidLockPropertiesException.class);
                assertThat(((InvalidLockPropertiesException) context.getStartupFailure()).outOfRange()).containsExactly(
                        "distributed-lock.max-ttl = 'P4000D'" + TEST + " must be at least PT0.001S and at most "
                                + "PT87600H",
                        "distributed-lock.default-ttl = '0s'" + TEST + " must be at least PT0.001S and at most PT24H",
                        "distributed-lock.max-hold = '-1s'" + TEST + " must be at least PT0.001S and at most PT87600H",
                        "distributed-lock.cleanup.retention = '30s'" + TEST + " must be at least PT1M and at most "
                                + "PT87600H",
                        "distributed-lock.cleanup.interval = '0s'" + TEST + " must be at least PT0.001S and at most "
                                + "PT87600H",
                        "distributed-lock.jdbc.statement-timeout = '500ms'" + TEST + " must be at least PT1S and at "
                                + "most PT24H",
                        "distributed-lock.watchdog.threads = '0'" + TEST + " must be between 1 and 64",
                        "distributed-lock.watchdog.renew-ratio = '1.5'" + TEST + " must be above 0 and at most 0.9");
                assertThat(context.getStartupFailure()).hasMessageStartingWith("8 distributed-lock properties are "
                        + "wrong:\n");
            });
    }

    @Test
    void theCleanUpsTimesAreNotCheckedWhileTheCleanUpIsOff() {
        runner.withPropertyValues("distributed-lock.cleanup.enabled=false", "distributed-lock.cleanup.retention=30s")
            .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void anUnknownKeyOfANestedGroupWithoutACloseMatchListsTheGroupsKeys() {
        runner.withPropertyValues("distributed-lock.watchdog.pool-size=4")
            .run(context -> assertThat(context.getStartupFailure()).hasMessageStartingWith(
                    "distributed-lock.watchdog.pool-size" + TEST + " is not a distributed-lock property; "
                            + "distributed-lock.watchdog has renew-ratio, threads"));
    }

    @Test
    void everyDeclaredKeyOfEveryGroupIsKnownInEveryRelaxedForm() {
        runner.withPropertyValues("distributed-lock.enabled=true", "distributed-lock.tableName=relaxed_locks",
                "distributed-lock.default_ttl=45s", "distributed-lock.MAX-HOLD=PT2H", "distributed-lock.max-ttl=P2D",
                "distributed-lock.time-source=database", "distributed-lock.dialect=h2",
                "distributed-lock.owner-prefix=replica-7", "distributed-lock.interrupt-on-loss=false",
                "distributed-lock.aop-order=42", "distributed-lock.strict-properties=true",
                "distributed-lock.watchdog.threads=2", "distributed-lock.watchdog.renew-ratio=0.5",
                "distributed-lock.startup-check=eager", "distributed-lock.cleanup.retention=2h",
                "distributed-lock.cleanup.interval=90s", "distributed-lock.jdbc.initialize-schema=embedded",
                "distributed-lock.jdbc.platform=h2", "distributed-lock.jdbc.continue-on-error=true",
                "distributed-lock.jdbc.schema=classpath:io/distlock/jdbc/dialect/schema-@@platform@@.sql",
                "distributed-lock.http.enabled=false", "distributed-lock.http.base-path=/locks",
                "distributed-lock.http.max-ttl=1h")
            .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void keysDeclaredByTheMetadataOfOtherModulesAreKnown(@TempDir Path dir) throws IOException {
        ClassLoader withModule = moduleMetadata(dir);
        runner.withClassLoader(withModule)
            .withPropertyValues("distributed-lock.store=jdbc", "distributed-lock.redis.nodes[0]=localhost:6379",
                    "distributed-lock.redis.timeouts.acquire=2s", "distributed-lock.jdbc.statement-timeout=5s")
            .run(context -> assertThat(context).hasNotFailed());
        runner.withClassLoader(withModule).withPropertyValues("distributed-lock.redis.node=localhost:6379")
            .run(context -> assertThat(context.getStartupFailure()).hasMessageStartingWith(
                    "distributed-lock.redis.node" + TEST + " is not a distributed-lock property; did you mean "
                            + "distributed-lock.redis.nodes?"));
    }

    @Test
    void durationsDeclaredByOtherModulesNeedAUnitToo(@TempDir Path dir) throws IOException {
        runner.withClassLoader(moduleMetadata(dir)).withPropertyValues("distributed-lock.jdbc.statement-timeout=5")
            .run(context -> assertThat(context.getStartupFailure())
                .hasMessage("distributed-lock.jdbc.statement-timeout = '5'" + TEST + " " + UNITLESS));
    }

    @Test
    void withStrictPropertiesOffUnknownKeysAreLoggedAtWarnAndTheStartGoesOn(CapturedOutput output) {
        runner.withPropertyValues("distributed-lock.strict-properties=false", "distributed-lock.tabel-name=x")
            .run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(output).contains("WARN").contains("Ignoring 1 unknown distributed-lock key "
                        + "(distributed-lock.strict-properties=false):\n - distributed-lock.tabel-name" + TEST
                        + " is not a distributed-lock property; did you mean distributed-lock.table-name?");
            });
    }

    @Test
    void durationPropertiesWithoutAUnitFailTheStartEvenWithStrictPropertiesOff() {
        runner.withPropertyValues("distributed-lock.strict-properties=false", "distributed-lock.default-ttl=30",
                "distributed-lock.cleanup.interval=600", "distributed-lock.http.max-ttl=3600000")
            .run(context -> {
                assertThat(context).hasFailed();
                assertThat(context.getStartupFailure()).isInstanceOf(InvalidLockPropertiesException.class)
                    .hasMessage("3 distributed-lock properties are wrong:\n"
                            + " - distributed-lock.cleanup.interval = '600'" + TEST + " " + UNITLESS + "\n"
                            + " - distributed-lock.default-ttl = '30'" + TEST + " " + UNITLESS + "\n"
                            + " - distributed-lock.http.max-ttl = '3600000'" + TEST + " " + UNITLESS);
            });
    }

    @Test
    void aDurationWithoutAUnitIsFoundBehindPlaceholdersNumbersAndEnvironmentVariables() {
        runner.withPropertyValues("distributed-lock.max-hold=${jobs.hold}", "jobs.hold=7200")
            .run(context -> assertThat(context.getStartupFailure())
                .hasMessage("distributed-lock.max-hold = '7200'" + TEST + " " + UNITLESS));
        runner.withInitializer(context -> context.getEnvironment().getPropertySources()
            .addFirst(new MapPropertySource("yaml", Map.of("distributed-lock.max-ttl", 86400))))
            .run(context -> assertThat(context.getStartupFailure())
                .hasMessage("distributed-lock.max-ttl = '86400' (from property source \"yaml\") " + UNITLESS));
        runner.withInitializer(context -> context.getEnvironment().getPropertySources()
            .addFirst(new SystemEnvironmentPropertySource("env", Map.of("DISTRIBUTED_LOCK_DEFAULT_TTL", "30"))))
            .run(context -> assertThat(context.getStartupFailure())
                .hasMessage("distributed-lock.default-ttl = '30' (from property source \"env\") " + UNITLESS));
    }

    @Test
    void durationsWithAUnitAndZeroStart() {
        runner.withPropertyValues("distributed-lock.default-ttl=PT30S", "distributed-lock.max-hold=90m",
                "distributed-lock.cleanup.interval=500ms", "distributed-lock.http.max-ttl=0")
            .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void withoutTheMetadataTheKeysAreNotCheckedAndAWarningSaysSo(CapturedOutput output) {
        runner.withClassLoader(new FilteredClassLoader(
                new ClassPathResource("META-INF/spring-configuration-metadata.json"),
                new ClassPathResource("META-INF/additional-spring-configuration-metadata.json")))
            .withPropertyValues("distributed-lock.tabel-name=x")
            .run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(output).contains("Cannot check the distributed-lock.* properties: no configuration "
                        + "metadata declares distributed-lock.enabled");
            });
    }

    @Test
    void withoutTheMetadataTheBindingItselfRefusesADurationWithoutAUnit() {
        runner.withClassLoader(new FilteredClassLoader(
                new ClassPathResource("META-INF/spring-configuration-metadata.json"),
                new ClassPathResource("META-INF/additional-spring-configuration-metadata.json")))
            .withPropertyValues("distributed-lock.default-ttl=30")
            .run(context -> {
                assertThat(context).hasFailed();
                assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining("distributed-lock.default-ttl = '30'" + TEST + " " + UNITLESS);
            });
        runner.withClassLoader(new FilteredClassLoader(
                new ClassPathResource("META-INF/spring-configuration-metadata.json"),
                new ClassPathResource("META-INF/additional-spring-configuration-metadata.json")))
            .withPropertyValues("distributed-lock.jdbc.statement-timeout=${lock.timeout}", "lock.timeout=5")
            .run(context -> assertThat(context.getStartupFailure()).rootCause()
                .hasMessageContaining("distributed-lock.jdbc.statement-timeout = '5'")
                .hasMessageContaining(UNITLESS));
    }

    /** A class loader that also sees the metadata of a module declaring keys of its own, as lock-redis would. */
    private static ClassLoader moduleMetadata(Path dir) throws IOException {
        Path metaInf = Files.createDirectories(dir.resolve("META-INF"));
        Files.writeString(metaInf.resolve("spring-configuration-metadata.json"), """
                {"groups": [{"name": "distributed-lock.redis"}],
                 "properties": [
                   {"name": "distributed-lock.store", "type": "java.lang.String"},
                   {"name": "distributed-lock.redis.nodes", "type": "java.util.List<java.lang.String>"},
                   {"name": "distributed-lock.redis.timeouts",
                    "type": "java.util.Map<java.lang.String,java.time.Duration>"},
                   {"name": "distributed-lock.jdbc.statement-timeout", "type": "java.time.Duration"}
                 ]}
                """);
        return new URLClassLoader(new URL[] { dir.toUri().toURL() },
                LockPropertiesValidatorTests.class.getClassLoader());
    }
}
