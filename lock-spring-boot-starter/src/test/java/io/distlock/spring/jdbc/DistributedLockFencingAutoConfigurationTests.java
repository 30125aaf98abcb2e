package io.distlock.spring.jdbc;

import javax.sql.DataSource;

import io.distlock.jdbc.FencingGuard;
import io.distlock.jdbc.FencingResult;
import io.distlock.spring.StartupFailures;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link DistributedLockFencingAutoConfiguration}: off unless asked for; then a {@link FencingGuard} on the
 * application's data source and its table under the configured name, created as the lock table is, or a start that
 * fails naming the table when it is missing and initialisation is off.
 */
class DistributedLockFencingAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withPropertyValues("spring.datasource.generate-unique-name=true")
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                DataSourceTransactionManagerAutoConfiguration.class, TransactionAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class, DistributedLockFencingAutoConfiguration.class));

    @Test
    void providesNoFencingGuardUnlessEnabled() {
        runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(FencingGuard.class));
    }

    @Test
    void whenEnabledCreatesTheTableUnderItsNameAndTheGuardFencesWritesInTheCallersTransaction() {
        runner.withPropertyValues("distributed-lock.fencing.enabled=true",
                "distributed-lock.fencing.table-name=ledger_fence").run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(FencingGuard.class);
                    FencingGuard guard = context.getBean(FencingGuard.class);
                    assertThat(guard.tableName()).isEqualTo("ledger_fence");
                    TransactionTemplate transaction = context.getBean(TransactionTemplate.class);
                    FencingResult newer = transaction.execute(status -> guard.admit("ledger", 7));
                    FencingResult older = transaction.execute(status -> guard.admit("ledger", 6));
                    assertThat(newer).isEqualTo(FencingResult.ACCEPTED);
                    assertThat(older).as("an older token after a newer one").isEqualTo(FencingResult.REFUSED);
                    assertThat(guard.lastToken("ledger")).hasValue(7);
                });
    }

    @Test
    void aMissingTableWithInitialisationOffFailsTheStartNamingIt() {
        // The lock table is there (made by hand); the fencing table is not, and nothing creates it.
        runner.withBean(DataSource.class, () -> new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
                .generateUniqueName(true).addScript("classpath:io/distlock/jdbc/dialect/schema-h2.sql").build())
            .withPropertyValues("distributed-lock.fencing.enabled=true",
                "distributed-lock.fencing.table-name=missing_fence", "distributed-lock.jdbc.initialize-schema=never")
            .run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("Fencing table 'missing_fence'"));
    }

    @Test
    void anUnknownDialectFailsTheStartOfTheFencingGuardNamingTheProperty() {
        // Fencing alone, as beside a lock store that is not JDBC: its own start names the property at fault.
        new ApplicationContextRunner().withPropertyValues("spring.datasource.generate-unique-name=true")
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    DistributedLockFencingAutoConfiguration.class))
            .withPropertyValues("distributed-lock.fencing.enabled=true", "distributed-lock.dialect=oracle")
            .run(context -> {
                assertThat(context).hasFailed();
                FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
                assertThat(analysis).isNotNull();
                assertThat(analysis.getCause()).isInstanceOf(UnknownLockDialectException.class);
                assertThat(analysis.getDescription())
                    .startsWith("distributed-lock.dialect = 'oracle' is not a lock dialect");
            });
    }
}
