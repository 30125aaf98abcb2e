package io.distlock.spring.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.UUID;

import javax.sql.DataSource;

import io.distlock.jdbc.LockTableMissingException;
import io.distlock.spring.StartupFailures;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.datasource.AbstractDataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failure analyses of the lock store's start-up failures, each taken from the real failure of a context start,
 * through the analyzers registered in {@code META-INF/spring.factories}.
 */
class LockStartupFailureAnalyzersTests {

    private static final String CLOSED_PORT = "jdbc:postgresql://127.0.0.1:1/test";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class))
        .withPropertyValues("distributed-lock.cleanup.enabled=false",
                "spring.datasource.url=jdbc:h2:mem:analyzers-" + UUID.randomUUID());

    @Test
    void aMissingLockTableSaysWhichTableAndHowToCreateIt() {
        runner.withPropertyValues("distributed-lock.jdbc.initialize-schema=never").run(context -> {
            FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getCause()).isInstanceOf(LockTableMissingException.class);
            assertThat(analysis.getDescription()).startsWith("Lock table 'distributed_locks' (columns resource, "
                    + "owner, token, acquired_at, expires_at) or its token sequence 'distributed_locks_token_seq' "
                    + "is missing in H2: ")
                .contains("Create them with the script io/distlock/jdbc/dialect/schema-h2.sql from the "
                        + "lock-jdbc jar");
            assertThat(analysis.getAction()).isEqualTo("Create the lock table and its token sequence before the "
                    + "application starts: set distributed-lock.jdbc.initialize-schema=always to have the starter "
                    + "run the schema script at start-up, or run the script named above from the lock-jdbc jar "
                    + "yourself (or with your migration tool). If the table exists under another name or in another "
                    + "schema, set distributed-lock.table-name to it.");
        });
    }

    @Test
    void anUnreachableDatabaseNamesItsUrlTheDriversAnswerAndTheWayOut() {
        runner.withPropertyValues("spring.datasource.url=" + CLOSED_PORT).run(context -> {
            FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getCause()).isInstanceOf(LockDatabaseUnreachableException.class);
            assertThat(analysis.getDescription()).startsWith("Distributed locks could not set up the lock repository "
                    + "at start-up: the database at " + CLOSED_PORT + " could not be reached (")
                .contains("Connection to 127.0.0.1:1 refused")
                .endsWith(").");
            assertThat(analysis.getAction()).isEqualTo("Make sure that the database at " + CLOSED_PORT + " is running "
                    + "and reachable with the configured credentials (spring.datasource.url, "
                    + "spring.datasource.username, spring.datasource.password). Start the database, or set "
                    + "distributed-lock.startup-check=lazy to start without it and check the lock table on first "
                    + "use.");
        });
    }

    @Test
    void anUnreachableDatabaseInLazyModeWithoutADialectSaysTheDialectIsRequired() {
        runner.withPropertyValues("distributed-lock.startup-check=lazy", "distributed-lock.jdbc.platform=postgresql")
            .withBean(DataSource.class, LockStartupFailureAnalyzersTests::unreachableWithoutUrl)
            .run(context -> {
                FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
                assertThat(analysis).isNotNull();
                assertThat(analysis.getCause()).isInstanceOf(LockDatabaseUnreachableException.class);
                assertThat(analysis.getAction()).endsWith("distributed-lock.dialect is required with "
                        + "distributed-lock.startup-check=lazy when the JDBC URL does not name the database: set it "
                        + "to h2, postgresql or mariadb.");
            });
    }

    @Test
    void anUnknownDialectNamesThePropertyAndTheSupportedDialects() {
        runner.withPropertyValues("distributed-lock.dialect=oracle").run(context -> {
            assertThat(StartupFailures.messages(context.getStartupFailure())).contains("distributed-lock.dialect = "
                    + "'oracle' is not a lock dialect; supported: h2 (2.x), postgresql (12 or later), mariadb (10.6 or "
                    + "later)");
            FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getCause()).isInstanceOf(UnknownLockDialectException.class);
            assertThat(analysis.getDescription()).isEqualTo("distributed-lock.dialect = 'oracle' is not a lock "
                    + "dialect; supported: h2 (2.x), postgresql (12 or later), mariadb (10.6 or later)");
            assertThat(analysis.getAction()).isEqualTo("Set distributed-lock.dialect to h2, postgresql or mariadb, "
                    + "or remove it to have the dialect detected from the database. Other databases, MySQL included, "
                    + "are not supported.");
        });
    }

    /** A data source on a closed port that does not tell its URL. */
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
        };
    }
}
