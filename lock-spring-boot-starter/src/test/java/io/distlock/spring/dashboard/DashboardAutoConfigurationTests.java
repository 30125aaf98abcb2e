package io.distlock.spring.dashboard;

import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.web.servlet.DispatcherServlet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard is served only when asked for, in a Spring MVC application with a lock store; its properties are
 * checked at start-up; its admin mode never starts unprotected unless a property accepts it.
 */
class DashboardAutoConfigurationTests {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class, DistributedLockDashboardAutoConfiguration.class))
        .withPropertyValues("spring.datasource.url=jdbc:h2:mem:dashboard-autoconfig");

    @Test
    void offByDefault() {
        runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DashboardController.class)
                .doesNotHaveBean(DashboardEvents.class));
    }

    @Test
    void servedWhenEnabledReadOnlyByDefaultWithItsPropertiesBound() {
        runner.withPropertyValues("distributed-lock.dashboard.enabled=true", "distributed-lock.dashboard.path=/ops/locks",
                "distributed-lock.dashboard.refresh-interval=5s", "distributed-lock.dashboard.event-capacity=20")
            .run(context -> {
                assertThat(context).hasNotFailed().hasSingleBean(DashboardController.class)
                    .hasSingleBean(DashboardExceptionHandler.class).hasSingleBean(DashboardEvents.class);
                DashboardSettings settings = context.getBean(DashboardSettings.class);
                assertThat(settings.path()).isEqualTo("/ops/locks");
                assertThat(settings.refreshInterval()).hasSeconds(5);
                assertThat(settings.eventCapacity()).isEqualTo(20);
                assertThat(context.getBean(DashboardAccess.class).mode()).isEqualTo(DashboardAccess.Mode.READ_ONLY);
            });
    }

    @Test
    void backsOffWithoutSpringMvcOutsideAWebApplicationAndWithoutALockStore() {
        runner.withPropertyValues("distributed-lock.dashboard.enabled=true")
            .withClassLoader(new FilteredClassLoader(DispatcherServlet.class))
            .run(context -> assertThat(context).doesNotHaveBean(DashboardController.class));
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class, DistributedLockDashboardAutoConfiguration.class))
            .withPropertyValues("spring.datasource.url=jdbc:h2:mem:dashboard-autoconfig-2",
                    "distributed-lock.dashboard.enabled=true")
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DashboardController.class));
        new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DistributedLockDashboardAutoConfiguration.class))
            .withPropertyValues("distributed-lock.dashboard.enabled=true")
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DashboardController.class));
    }

    @Test
    void aValueOutOfRangeFailsTheStartNamingTheProperty() {
        String[][] wrong = {
                { "distributed-lock.dashboard.path=distlock", "distributed-lock.dashboard.path" },
                { "distributed-lock.dashboard.path=/", "distributed-lock.dashboard.path" },
                { "distributed-lock.dashboard.path=/ops/../admin", "distributed-lock.dashboard.path" },
                { "distributed-lock.dashboard.path=/distlock/", "distributed-lock.dashboard.path" },
                { "distributed-lock.dashboard.path=/dist lock", "distributed-lock.dashboard.path" },
                { "distributed-lock.dashboard.admin-role=lock admins", "distributed-lock.dashboard.admin-role" },
                { "distributed-lock.dashboard.refresh-interval=10ms", "distributed-lock.dashboard.refresh-interval" },
                { "distributed-lock.dashboard.store-timeout=2m", "distributed-lock.dashboard.store-timeout" },
                { "distributed-lock.dashboard.event-capacity=0", "distributed-lock.dashboard.event-capacity" },
                { "distributed-lock.dashboard.long-held-after=0s", "distributed-lock.dashboard.long-held-after" } };
        for (String[] entry : wrong) {
            runner.withPropertyValues("distributed-lock.dashboard.enabled=true", entry[0]).run(context -> {
                assertThat(context).as(entry[0]).hasFailed();
                assertThat(context.getStartupFailure()).as(entry[0]).rootCause()
                    .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                    .hasMessageContaining(entry[1]);
            });
        }
    }

    @Test
    void theAdminModeRefusesToStartWithoutSpringSecuritySayingWhatToDo() {
        runner.withPropertyValues("distributed-lock.dashboard.enabled=true",
                "distributed-lock.dashboard.admin-enabled=true").run(context -> {
                    assertThat(context).hasFailed();
                    Throwable failure = context.getStartupFailure();
                    assertThat(failure).rootCause().isInstanceOf(DashboardAdminUnprotectedException.class)
                        .hasMessageContaining("anyone who reaches /distlock release any lock");
                    FailureAnalysis analysis = new DashboardAdminUnprotectedFailureAnalyzer().analyze(failure);
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getAction()).contains("spring-boot-starter-security",
                            "distributed-lock.dashboard.admin-enabled=false",
                            "distributed-lock.dashboard.allow-unprotected-admin=true");
                });
    }

    @Test
    void theAdminModeStartsUnprotectedOnlyWhenAPropertyAcceptsItAndWithSpringSecurityOtherwise() {
        runner.withPropertyValues("distributed-lock.dashboard.enabled=true",
                "distributed-lock.dashboard.admin-enabled=true", "distributed-lock.dashboard.allow-unprotected-admin=true")
            .run(context -> assertThat(context.getBean(DashboardAccess.class).mode())
                    .isEqualTo(DashboardAccess.Mode.UNPROTECTED_ADMIN));
        runner.withPropertyValues("distributed-lock.dashboard.enabled=true",
                "distributed-lock.dashboard.admin-enabled=true")
            .withBean(DashboardConfiguration.SECURITY_FILTER_CHAIN, Object.class, Object::new)
            .run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(DashboardAccess.class).mode()).isEqualTo(DashboardAccess.Mode.ADMIN);
            });
    }

    @Test
    void forcedReleasesAreCountedWhenAMeterRegistryExistsAndTheDashboardStartsWithoutMicrometer() {
        runner.withPropertyValues("distributed-lock.dashboard.enabled=true")
            .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .run(context -> {
                context.getBean(ForcedReleaseCounter.class).counter();
                assertThat(context.getBean(MeterRegistry.class).get(ForcedReleaseCounter.NAME).counter().count())
                    .isZero();
            });
        runner.withPropertyValues("distributed-lock.dashboard.enabled=true")
            .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
            .run(context -> assertThat(context).hasNotFailed().hasSingleBean(DashboardController.class)
                    .doesNotHaveBean(ForcedReleaseCounter.class));
    }
}
