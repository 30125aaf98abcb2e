package io.distlock.spring.jdbc;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import io.distlock.core.LockManager;
import io.distlock.core.LockRepository;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockTableMissingException;
import io.distlock.spring.actuate.DistributedLockHealthAutoConfiguration;
import io.distlock.spring.actuate.DistributedLockHealthIndicator;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.AbstractDataSource;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code distributed-lock.startup-check}: eager start-up fails naming the real cause when the database cannot be
 * reached; lazy start-up starts without the database, reports DOWN until the lock table answers, and checks the table
 * on first use. The unreachable database is a PostgreSQL URL on a port where nothing listens.
 */
class DistributedLockStartupCheckTests {

    private static final String CLOSED_PORT = "jdbc:postgresql://127.0.0.1:1/test";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class, DistributedLockHealthAutoConfiguration.class))
        .withPropertyValues("distributed-lock.cleanup.enabled=false");

    @Test
    void eagerStartFailsNamingTheUnreachableDatabaseAndTheDriversAnswer() {
        runner.withPropertyValues("spring.datasource.url=" + CLOSED_PORT).run(context -> {
            assertThat(context).hasFailed();
            assertThat(startupMessage(context.getStartupFailure()))
                .contains("Distributed locks could not set up the lock repository at start-up: the database at "
                        + CLOSED_PORT + " could not be reached (")
                .contains("Connection to 127.0.0.1:1 refused")
                .contains("set distributed-lock.startup-check=lazy")
                .doesNotContain("set the dialect explicitly");
        });
    }

    @Test
    void eagerStartWithTheDialectSetAlsoNamesTheUnreachableDatabase() {
        runner.withPropertyValues("spring.datasource.url=" + CLOSED_PORT, "distributed-lock.dialect=postgresql",
                "distributed-lock.startup-check=eager")
            .run(context -> {
                assertThat(context).hasFailed();
                assertThat(startupMessage(context.getStartupFailure()))
                    .contains("the database at " + CLOSED_PORT + " could not be reached (")
                    .contains("Connection to 127.0.0.1:1 refused")
                    .doesNotContain("lock table '");
            });
    }

    @Test
    void eagerStartWithAUsersRepositoryNamesTheUnreachableDatabaseAtTheTableCheck() {
        runner.withPropertyValues("spring.datasource.url=" + CLOSED_PORT)
            .withBean(LockRepository.class, () -> JdbcLockRepository.builder(unreachableWithoutUrl())
                .dialect(io.distlock.jdbc.dialect.LockDialects.byName("postgresql")).build())
            .run(context -> {
                assertThat(context).hasFailed();
                assertThat(startupMessage(context.getStartupFailure()))
                    .contains("Distributed locks could not check the lock table at start-up: the database at "
                            + CLOSED_PORT + " could not be reached (")
                    .contains("Connection to 127.0.0.1:1 refused");
            });
    }

    @Test
    void lazyStartSucceedsWithTheDatabaseDownAndHealthIsDownWithTheReason() {
        runner.withPropertyValues("spring.datasource.url=" + CLOSED_PORT, "distributed-lock.startup-check=lazy",
                "distributed-lock.dialect=postgresql")
            .run(context -> {
                assertThat(context).hasNotFailed().hasSingleBean(LockManager.class);
                // The first answer may come before the query failed (health waits for it 800 ms): DOWN either way.
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                    Health health = context.getBean(DistributedLockHealthIndicator.class).health();
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(health.getDetails().get("error").toString())
                        .contains("Connection to 127.0.0.1:1 refused");
                });
                assertThatThrownBy(() -> context.getBean(LockManager.class).tryAcquire("lazy", Duration.ofSeconds(5)))
                    .hasMessageContaining("Connection to 127.0.0.1:1 refused");
                assertThat(((SchemaCheckingLockRepository) context.getBean(LockRepository.class)).isVerified())
                    .isFalse();
            });
    }

    @Test
    void lazyStartDetectsTheDialectFromTheJdbcUrlWithoutAConnection() {
        runner.withPropertyValues("spring.datasource.url=" + CLOSED_PORT, "distributed-lock.startup-check=LAZY")
            .run(context -> {
                assertThat(context).hasNotFailed();
                LockRepository repository = context.getBean(LockRepository.class);
                assertThat(repository).isInstanceOf(SchemaCheckingLockRepository.class);
                JdbcLockRepository jdbc = (JdbcLockRepository) ((SchemaCheckingLockRepository) repository).delegate();
                assertThat(jdbc.dialect().name()).isEqualToIgnoringCase("postgresql");
            });
    }

    @Test
    void lazyStartWithoutADialectFailsWhenNeitherTheUrlNorTheDatabaseTellsIt() {
        runner.withBean(DataSource.class, DistributedLockStartupCheckTests::unreachableWithoutUrl)
            .withPropertyValues("distributed-lock.startup-check=lazy")
            .run(context -> {
                assertThat(context).hasFailed();
                assertThat(startupMessage(context.getStartupFailure()))
                    .contains("Distributed locks could not detect the lock dialect at start-up: the database could "
                            + "not be reached (")
                    .contains("Connection to 127.0.0.1:1 refused")
                    .contains("distributed-lock.dialect is required with distributed-lock.startup-check=lazy when "
                            + "the JDBC URL does not name the database: set it to h2, postgresql or mariadb");
            });
    }

    @Test
    void unknownStartupCheckFailsNamingTheProperty() {
        runner.withPropertyValues("spring.datasource.url=jdbc:h2:mem:startup-" + UUID.randomUUID(),
                "distributed-lock.startup-check=later")
            .run(context -> {
                assertThat(context).hasFailed();
                assertThat(startupMessage(context.getStartupFailure()))
                    .contains("distributed-lock.startup-check");
            });
    }

    @Test
    void lazyModeChecksTheTableOnFirstUse() {
        DataSource dataSource = new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
            .generateUniqueName(true).build();
        runner.withBean(DataSource.class, () -> dataSource)
            .withPropertyValues("distributed-lock.startup-check=lazy", "distributed-lock.jdbc.initialize-schema=never")
            .run(context -> {
                assertThat(context).hasNotFailed();
                LockManager locks = context.getBean(LockManager.class);
                assertThatExceptionOfType(LockTableMissingException.class)
                    .isThrownBy(() -> locks.tryAcquire("first-use", Duration.ofSeconds(5)))
                    .withMessageContaining("Lock table 'distributed_locks'")
                    .withMessageContaining("distributed-lock.jdbc.initialize-schema=always");
                new JdbcTemplate(dataSource).execute("RUNSCRIPT FROM 'classpath:io/distlock/jdbc/dialect/"
                        + "schema-h2.sql'");
                locks.tryAcquire("first-use", Duration.ofSeconds(5)).orElseThrow().release();
                assertThat(((SchemaCheckingLockRepository) context.getBean(LockRepository.class)).isVerified())
                    .isTrue();
            });
    }

    @Test
    void lazyModeRecoversOnceTheDatabaseAnswers() {
        SwitchableDataSource dataSource = new SwitchableDataSource(new EmbeddedDatabaseBuilder()
            .setType(EmbeddedDatabaseType.H2).generateUniqueName(true)
            .addScript("classpath:io/distlock/jdbc/dialect/schema-h2.sql").build());
        runner.withBean(DataSource.class, () -> dataSource)
            .withPropertyValues("distributed-lock.startup-check=lazy", "distributed-lock.dialect=h2")
            .run(context -> {
                assertThat(context).hasNotFailed();
                DistributedLockHealthIndicator health = context.getBean(DistributedLockHealthIndicator.class);
                Health down = health.health();
                assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                assertThat(down.getDetails().get("error").toString()).contains("the database is down");
                dataSource.up.set(true);
                assertThat(health.health().getStatus()).isEqualTo(Status.UP);
                context.getBean(LockManager.class).tryAcquire("recovered", Duration.ofSeconds(5)).orElseThrow()
                    .release();
            });
    }

    private static String startupMessage(Throwable failure) {
        StringBuilder messages = new StringBuilder();
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            messages.append(cause.getMessage()).append('\n');
        }
        return messages.toString();
    }

    /** A data source on the closed port that does not tell its URL. */
    private static DataSource unreachableWithoutUrl() {
        return new AbstractDataSource() {

            @Override
            public Connection getConnection() throws SQLException {
                return DriverManager.getConnection(CLOSED_PORT, "postgres", "");
            }

            @Override
            public Connection getConnection(String username, String password) throws SQLException {
                return DriverManager.getConnection(CLOSED_PORT, username, password);
            }

            @Override
            public PrintWriter getLogWriter() {
                return new PrintWriter(System.err);
            }
        };
    }

    /** A data source that refuses connections until it is switched up, as a database that is still starting. */
    static final class SwitchableDataSource extends DelegatingDataSource {

        final AtomicBoolean up = new AtomicBoolean();

        SwitchableDataSource(DataSource target) {
            super(target);
        }

        @Override
        public Connection getConnection() throws SQLException {
            if (!up.get()) {
                throw new SQLException("the database is down", "08001");
            }
            return super.getConnection();
        }
    }
}
