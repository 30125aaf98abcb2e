package io.distlock.spring.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import com.jayway.jsonpath.JsonPath;
import io.distlock.core.Lease;
import io.distlock.core.LeaseWatchdog;
import io.distlock.core.LockManager;
import io.distlock.core.LockRepository;
import io.distlock.core.OwnerGenerator;
import io.distlock.core.RandomOwnerGenerator;
import io.distlock.core.TimeSource;
import io.distlock.core.WatchdogSettings;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.JdbcReplication;
import io.distlock.jdbc.LockReplicationException;
import io.distlock.jdbc.LockTableMissingException;
import io.distlock.jdbc.LockTableName;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.jdbc.dialect.LockDialects;
import io.distlock.spring.DistributedLockDataSource;
import io.distlock.spring.aop.DistributedLockAdvisor;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockProperties;
import io.distlock.spring.autoconfigure.LockManagerBuilderCustomizer;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which beans {@link DistributedLockAutoConfiguration} contributes, when it backs off, and how its properties bind.
 */
class DistributedLockAutoConfigurationTests {

    private static final String H2_SCHEMA = "classpath:io/distlock/jdbc/dialect/schema-h2.sql";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                DataSourceTransactionManagerAutoConfiguration.class, TransactionAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class));

    @Test
    void providesEveryLockBeanWhenThereIsADataSource() {
        runner.run(context -> {
            assertThat(context).hasNotFailed()
                .hasSingleBean(JdbcLockRepository.class)
                .hasSingleBean(LockManager.class)
                .hasBean("expiredLockCleanup")
                .hasSingleBean(OwnerGenerator.class)
                .hasSingleBean(LeaseWatchdog.class)
                .hasSingleBean(DistributedLockAdvisor.class)
                .hasBean("lockedMethods")
                .hasBean("lockedMethodValidator")
                .hasSingleBean(DistributedLockDataSourceScriptDatabaseInitializer.class)
                .hasSingleBean(DistributedLockProperties.class)
                .hasSingleBean(DistributedLockJdbcProperties.class);
            assertThat(context.getBean(LockManager.class).watchdog()).isSameAs(context.getBean(LeaseWatchdog.class));
            assertThat(context.getBean(DistributedLockAdvisor.class).getOrder())
                .isEqualTo(io.distlock.spring.support.AdviceOrder.DEFAULT);
        });
    }

    @Test
    void backsOffWithoutADataSource() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class))
            .run(context -> assertThat(context).hasNotFailed()
                .doesNotHaveBean(LockRepository.class)
                .doesNotHaveBean(LockManager.class)
                .doesNotHaveBean(DistributedLockAdvisor.class));
    }

    @Test
    void backsOffWhenNoDataSourceIsTheSingleCandidate() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class))
            .withBean("first", DataSource.class, DistributedLockAutoConfigurationTests::embeddedLockDatabase)
            .withBean("second", DataSource.class, DistributedLockAutoConfigurationTests::embeddedLockDatabase)
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LockManager.class));
    }

    @Test
    void theDataSourceMarkedForLocksHoldsTheLockTableAndTheApplicationsPrimaryOneIsLeftAlone() {
        runner.withUserConfiguration(PrimaryAndLockDataSources.class).run(context -> {
            assertThat(context).hasNotFailed();
            DataSource application = context.getBean("applicationDataSource", DataSource.class);
            DataSource locks = context.getBean("lockDataSource", DataSource.class);
            assertThat(tableCount(locks, "DISTRIBUTED_LOCKS")).as("created in the lock data source").isOne();
            assertThat(tableCount(application, "DISTRIBUTED_LOCKS")).as("none in the application's").isZero();
            try (Lease lease = context.getBean(LockManager.class).tryAcquire("marked", Duration.ofSeconds(5))
                .orElseThrow()) {
                assertThat(rowCount(locks, "distributed_locks")).isOne();
            }
        });
    }

    @Test
    void aDataSourceMarkedForLocksIsUsedWhenNoneOfSeveralIsPrimary() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class))
            .withBean("first", DataSource.class, DistributedLockAutoConfigurationTests::embeddedLockDatabase)
            .withUserConfiguration(MarkedLockDataSource.class)
            .run(context -> {
                assertThat(context).hasNotFailed().hasSingleBean(LockManager.class);
                context.getBean(LockManager.class).tryAcquire("marked", Duration.ofSeconds(5)).orElseThrow()
                    .release();
                assertThat(new JdbcTemplate(context.getBean("marked", DataSource.class)).queryForObject(
                        "SELECT COUNT(*) FROM distributed_locks WHERE resource = 'marked'", Integer.class)).isOne();
                assertThat(rowCount(context.getBean("first", DataSource.class), "distributed_locks")).isZero();
            });
    }

    @Configuration(proxyBeanMethods = false)
    static class PrimaryAndLockDataSources {

        @Bean
        @Primary
        DataSource applicationDataSource() {
            return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
        }

        @Bean
        @DistributedLockDataSource
        DataSource lockDataSource() {
            return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class MarkedLockDataSource {

        @Bean
        @DistributedLockDataSource
        DataSource marked() {
            return embeddedLockDatabase();
        }
    }

    private static int tableCount(DataSource dataSource, String table) {
        Integer count = new JdbcTemplate(dataSource).queryForObject(
                "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME = ?", Integer.class, table);
        return count != null ? count : -1;
    }

    @Test
    void backsOffWhenDisabled() {
        runner.withPropertyValues("distributed-lock.enabled=false")
            .run(context -> assertThat(context).hasNotFailed()
                .doesNotHaveBean(LockRepository.class)
                .doesNotHaveBean(LockManager.class)
                .doesNotHaveBean(DistributedLockAdvisor.class)
                .doesNotHaveBean(DistributedLockDataSourceScriptDatabaseInitializer.class));
    }

    @Test
    void backsOffWithoutLockCore() {
        runner.withClassLoader(new FilteredClassLoader(LockManager.class))
            .run(context -> assertThat(context).hasNotFailed()
                .doesNotHaveBean(DistributedLockAdvisor.class)
                .doesNotHaveBean(DistributedLockProperties.class));
    }

    @Test
    void leavesTheSchemaAloneWithoutBootsScriptInitializer() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class))
            .withClassLoader(new FilteredClassLoader(DataSourceScriptDatabaseInitializer.class))
            .withBean(DataSource.class, DistributedLockAutoConfigurationTests::embeddedLockDatabase)
            .run(context -> assertThat(context).hasNotFailed()
                .hasSingleBean(LockManager.class)
                .doesNotHaveBean(DistributedLockDataSourceScriptDatabaseInitializer.class)
                .doesNotHaveBean(DistributedLockJdbcProperties.class));
    }

    @Test
    void userDefinedBeansWin() {
        LockRepository repository = JdbcLockRepository.builder(embeddedLockDatabase()).build();
        OwnerGenerator owners = () -> "mine:" + System.nanoTime();
        LeaseWatchdog watchdog = new LeaseWatchdog(repository, WatchdogSettings.DEFAULT);
        LockManager manager = LockManager.builder(repository).watchdog(watchdog).build();
        runner.withBean(LockRepository.class, () -> repository)
            .withBean(OwnerGenerator.class, () -> owners)
            .withBean(LeaseWatchdog.class, () -> watchdog)
            .withBean(LockManager.class, () -> manager)
            .run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(context).getBean(LockRepository.class).isSameAs(repository);
                assertThat(context).getBean(OwnerGenerator.class).isSameAs(owners);
                assertThat(context).getBean(LeaseWatchdog.class).isSameAs(watchdog);
                assertThat(context).getBean(LockManager.class).isSameAs(manager);
            });
    }

    @Test
    void userDefinedLockDialectIsUsedForTheRepositoryAndPicksTheSchemaScript() {
        LockDialect dialect = userDialect();
        runner.withBean(LockDialect.class, () -> dialect)
            .withPropertyValues("distributed-lock.dialect=postgresql",
                    "distributed-lock.jdbc.schema=classpath:io/distlock/spring/autoconfigure/schema-@@platform@@.sql")
            .run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(JdbcLockRepository.class).dialect()).isSameAs(dialect);
                DataSource dataSource = context.getBean(DataSource.class);
                assertThat(rowCount(dataSource, "userdb_schema_marker")).as("the userdb script ran").isZero();
                context.getBean(LockManager.class).tryAcquire("dialect", Duration.ofSeconds(5)).orElseThrow()
                    .release();
            });
    }

    @Test
    void explicitSchemaPlatformWinsOverTheLockDialectBean() {
        runner.withBean(LockDialect.class, DistributedLockAutoConfigurationTests::userDialect)
            .withPropertyValues("distributed-lock.jdbc.platform=h2")
            .run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(rowCount(context.getBean(DataSource.class), "distributed_locks")).isZero();
            });
    }

    /** A dialect of the application's own: H2's statements, under a platform of its own. */
    private static LockDialect userDialect() {
        LockDialect h2 = LockDialects.byName("h2");
        return (LockDialect) Proxy.newProxyInstance(LockDialect.class.getClassLoader(),
                new Class<?>[] { LockDialect.class }, (proxy, method, args) -> {
                    if (method.getName().equals("platform")) {
                        return "userdb";
                    }
                    try {
                        return method.invoke(h2, args);
                    }
                    catch (InvocationTargetException ex) {
                        throw ex.getCause();
                    }
                });
    }

    @Test
    void autoConfiguredManagerUsesTheUsersOwnerGeneratorAndRepository() {
        OwnerGenerator owners = new RandomOwnerGenerator("custom-owner");
        runner.withBean(OwnerGenerator.class, () -> owners).run(context -> {
            try (Lease lease = context.getBean(LockManager.class).tryAcquire("owners", Duration.ofSeconds(5))
                .orElseThrow()) {
                assertThat(lease.owner()).startsWith("custom-owner:");
            }
        });
    }

    @Test
    void bindsEveryProperty() {
        runner.withPropertyValues("distributed-lock.table-name=bound_locks", "distributed-lock.default-ttl=45s",
                "distributed-lock.max-hold=PT2H", "distributed-lock.max-ttl=P2D",
                "distributed-lock.time-source=application",
                "distributed-lock.dialect=h2", "distributed-lock.owner-prefix=replica-7",
                "distributed-lock.interrupt-on-loss=true", "distributed-lock.aop-order=42",
                "distributed-lock.watchdog.threads=3", "distributed-lock.watchdog.renew-ratio=0.5",
                "distributed-lock.startup-check=lazy", "distributed-lock.cleanup.enabled=true",
                "distributed-lock.cleanup.retention=2h", "distributed-lock.cleanup.interval=90s",
                "distributed-lock.jdbc.initialize-schema=always", "distributed-lock.jdbc.platform=h2",
                "distributed-lock.jdbc.schema=" + H2_SCHEMA, "distributed-lock.jdbc.continue-on-error=false")
            .run(context -> {
                assertThat(context).hasNotFailed();
                DistributedLockProperties properties = context.getBean(DistributedLockProperties.class);
                assertThat(properties.isEnabled()).isTrue();
                assertThat(properties.getTableName()).isEqualTo("bound_locks");
                assertThat(properties.getDefaultTtl()).isEqualTo(Duration.ofSeconds(45));
                assertThat(properties.getMaxHold()).isEqualTo(Duration.ofHours(2));
                assertThat(properties.getMaxTtl()).isEqualTo(Duration.ofDays(2));
                assertThat(properties.getTimeSource()).isEqualTo(TimeSource.APPLICATION);
                assertThat(properties.getDialect()).isEqualTo("h2");
                assertThat(properties.getOwnerPrefix()).isEqualTo("replica-7");
                assertThat(properties.isInterruptOnLoss()).isTrue();
                assertThat(properties.getAopOrder()).isEqualTo(42);
                assertThat(properties.getWatchdog().getThreads()).isEqualTo(3);
                assertThat(properties.getWatchdog().getRenewRatio()).isEqualTo(0.5);
                assertThat(properties.getStartupCheck()).isEqualTo(DistributedLockProperties.StartupCheck.LAZY);
                assertThat(properties.getCleanup().isEnabled()).isTrue();
                assertThat(properties.getCleanup().getRetention()).isEqualTo(Duration.ofHours(2));
                assertThat(properties.getCleanup().getInterval()).isEqualTo(Duration.ofSeconds(90));
                assertThat(context.getBean("expiredLockCleanup")).hasToString(
                        "ExpiredLockCleanup[retention=PT2H, interval=PT1M30S]");
                DistributedLockJdbcProperties jdbc = context.getBean(DistributedLockJdbcProperties.class);
                assertThat(jdbc.getInitializeSchema()).isEqualTo(DatabaseInitializationMode.ALWAYS);
                assertThat(jdbc.getPlatform()).isEqualTo("h2");
                assertThat(jdbc.getSchema()).isEqualTo(H2_SCHEMA);
                assertThat(jdbc.isContinueOnError()).isFalse();

                JdbcLockRepository repository = (JdbcLockRepository) ((SchemaCheckingLockRepository) context
                    .getBean(LockRepository.class)).delegate();
                assertThat(repository.table().value()).isEqualTo("bound_locks");
                assertThat(repository.dialect().name()).isEqualToIgnoringCase("H2");
                assertThat(context.getBean(OwnerGenerator.class).nextOwner()).startsWith("replica-7:");
                assertThat(context.getBean(DistributedLockAdvisor.class).getOrder()).isEqualTo(42);
                assertThat(rowCount(context.getBean(DataSource.class), "bound_locks")).isZero();
            });
    }

    @Test
    void statementTimeoutBoundsTheRepositorysStatementsAndDefaultsToFiveSeconds() {
        runner.run(context -> assertThat(context.getBean(JdbcLockRepository.class).statementTimeout())
            .isEqualTo(Duration.ofSeconds(5)));
        runner.withPropertyValues("distributed-lock.jdbc.statement-timeout=2s")
            .run(context -> assertThat(context.getBean(JdbcLockRepository.class).statementTimeout())
                .isEqualTo(Duration.ofSeconds(2)));
        runner.withPropertyValues("distributed-lock.jdbc.statement-timeout=500ms")
            .run(context -> assertThat(context).getFailure()
                .rootCause()
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("statementTimeout must be at least PT1S, got PT0.5S"));
    }

    @Test
    void durableReleaseIsOffByDefaultAndTurnedOnByItsProperty() {
        runner.run(context -> assertThat(context.getBean(JdbcLockRepository.class).durableRelease()).isFalse());
        runner.withPropertyValues("distributed-lock.jdbc.durable-release=true")
            .run(context -> assertThat(context.getBean(JdbcLockRepository.class).durableRelease()).isTrue());
    }

    @Test
    void initialisesTheSchemaOnAnEmbeddedDatabase() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(rowCount(context.getBean(DataSource.class), "distributed_locks")).isZero();
            try (Lease lease = context.getBean(LockManager.class).tryAcquire("schema", Duration.ofSeconds(5))
                .orElseThrow()) {
                assertThat(rowCount(context.getBean(DataSource.class), "distributed_locks")).isOne();
            }
        });
    }

    @Test
    void initialisesARenamedTableForACustomTableName() {
        runner.withPropertyValues("distributed-lock.table-name=ops_job_locks").run(context -> {
            assertThat(context).hasNotFailed();
            DataSource dataSource = context.getBean(DataSource.class);
            assertThat(rowCount(dataSource, "ops_job_locks")).isZero();
            assertThat(new JdbcTemplate(dataSource).queryForObject("SELECT NEXT VALUE FOR ops_job_locks_token_seq",
                    Long.class)).isPositive();
            context.getBean(LockManager.class).tryAcquire("renamed", Duration.ofSeconds(5)).orElseThrow().release();
        });
    }

    @ParameterizedTest
    @EnumSource(value = TestDatabase.class, names = { "POSTGRESQL", "MARIADB" })
    void alwaysInitialisesTheSchemaOnAServerDatabase(TestDatabase database) {
        DataSource dataSource = new DelegatingDataSource(database.dataSource());
        LockTableName table = new LockTableName("dl_init_" + UUID.randomUUID().toString().replace("-", "")
            .substring(0, 12));
        try {
            new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class))
                .withBean(DataSource.class, () -> dataSource)
                .withPropertyValues("distributed-lock.jdbc.initialize-schema=always",
                        "distributed-lock.table-name=" + table)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(rowCount(dataSource, table.value())).isZero();
                    context.getBean(LockManager.class).tryAcquire("init", Duration.ofSeconds(5)).orElseThrow()
                        .release();
                });
        }
        finally {
            database.dropLockTable(table);
        }
    }

    @Test
    void notifyWaitersIsOnByDefaultOnPostgreSqlAndCanBeTurnedOff() {
        LockTableName table = TestDatabase.POSTGRESQL.createLockTable();
        try {
            ApplicationContextRunner postgresql = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class))
                .withBean(DataSource.class, () -> new DelegatingDataSource(TestDatabase.POSTGRESQL.dataSource()))
                .withPropertyValues("distributed-lock.table-name=" + table);
            postgresql.run(context -> assertThat(context.getBean(JdbcLockRepository.class).notifiesWaiters())
                .isTrue());
            postgresql.withPropertyValues("distributed-lock.jdbc.notify-waiters=false")
                .run(context -> assertThat(context.getBean(JdbcLockRepository.class).notifiesWaiters()).isFalse());
            runner.run(context -> assertThat(context.getBean(JdbcLockRepository.class).notifiesWaiters()).isFalse());
        }
        finally {
            TestDatabase.POSTGRESQL.dropLockTable(table);
        }
    }

    @Test
    void replicationIsAsyncByDefaultAndBindsFromItsProperty() {
        runner.run(context -> assertThat(context.getBean(JdbcLockRepository.class).replication())
            .isEqualTo(JdbcReplication.ASYNC));
        runner.withPropertyValues("distributed-lock.jdbc.replication=remote-apply")
            .run(context -> assertThat(context.getBean(JdbcLockRepository.class).replication())
                .isEqualTo(JdbcReplication.REMOTE_APPLY));
    }

    @Test
    void requiringASynchronousStandbyOnH2FailsTheStartNamingTheSettingAndTheDatabase() {
        runner.withPropertyValues("distributed-lock.jdbc.replication=synchronous",
                "distributed-lock.jdbc.require-synchronous-standby=true")
            .run(context -> {
                assertThat(context).hasFailed();
                assertThat(findCause(context.getStartupFailure(), LockReplicationException.class)).isNotNull()
                    .hasMessageContaining("replication=synchronous (distributed-lock.jdbc.replication)")
                    .hasMessageContaining("cannot be honoured on H2");
            });
    }

    @Test
    void failsClearlyWhenTheTableIsMissingAndInitialisationIsOff() {
        runner.withPropertyValues("distributed-lock.jdbc.initialize-schema=never").run(context -> {
            assertThat(context).hasFailed();
            Throwable missing = findCause(context.getStartupFailure(), LockTableMissingException.class);
            assertThat(missing).isNotNull()
                .hasMessageContaining("Lock table 'distributed_locks'")
                .hasMessageContaining("distributed-lock.jdbc.initialize-schema=always");
        });
    }

    @Test
    void customizersSeeTheManagerBuilder() {
        List<LockManager.Builder> customized = new ArrayList<>();
        runner.withBean(LockManagerBuilderCustomizer.class, () -> customized::add)
            .run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(customized).hasSize(1);
            });
    }

    @Test
    void metadataDocumentsEveryProperty() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).isNotNull();
            String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            List<Map<String, Object>> properties = JsonPath.read(json, "$.properties[*]");
            assertThat(properties).extracting(property -> property.get("name")).contains("distributed-lock.enabled",
                    "distributed-lock.table-name", "distributed-lock.default-ttl", "distributed-lock.max-hold",
                    "distributed-lock.max-ttl", "distributed-lock.time-source", "distributed-lock.dialect",
                    "distributed-lock.owner-prefix", "distributed-lock.interrupt-on-loss",
                    "distributed-lock.aop-order", "distributed-lock.watchdog.threads",
                    "distributed-lock.watchdog.renew-ratio", "distributed-lock.jdbc.initialize-schema",
                    "distributed-lock.startup-check", "distributed-lock.cleanup.enabled",
                    "distributed-lock.cleanup.retention", "distributed-lock.cleanup.interval");
            assertThat(properties).allSatisfy(property -> {
                String description = (String) property.get("description");
                assertThat(description).as("description of %s", property.get("name")).isNotBlank()
                    .doesNotStartWith("The ").doesNotStartWith("A ");
                if ("java.lang.Boolean".equals(property.get("type"))) {
                    assertThat(description).startsWith("Whether");
                }
            });
        }
    }

    private static DataSource embeddedLockDatabase() {
        return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true)
            .addScript(H2_SCHEMA).build();
    }

    private static int rowCount(DataSource dataSource, String table) {
        Integer count = new JdbcTemplate(dataSource).queryForObject("SELECT COUNT(*) FROM " + table, Integer.class);
        return count != null ? count : -1;
    }

    private static Throwable findCause(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return cause;
            }
        }
        return null;
    }
}
