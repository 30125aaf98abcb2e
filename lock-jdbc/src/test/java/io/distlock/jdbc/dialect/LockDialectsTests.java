package io.distlock.jdbc.dialect;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How a dialect is picked: by its configured name, by the JDBC URL without connecting, or by the product the driver
 * reports; every built-in dialect is found each way.
 */
class LockDialectsTests {

    @Test
    void everyBuiltInDialectIsFoundByNameByUrlAndByProduct() {
        assertThat(LockDialects.builtIn()).containsOnlyKeys("h2", "postgresql", "mariadb");
        LockDialects.builtIn().forEach((name, dialect) -> {
            assertThat(LockDialects.byName(" " + name.toUpperCase() + " ")).isSameAs(dialect);
            assertThat(LockDialects.forJdbcUrl("jdbc:" + name + ":whatever")).isSameAs(dialect);
        });
        assertThat(LockDialects.forProduct("H2", "2.4.240")).isSameAs(LockDialects.byName("h2"));
        assertThat(LockDialects.forProduct("PostgreSQL", "15.2")).isSameAs(LockDialects.byName("postgresql"));
        assertThat(LockDialects.forProduct("MariaDB", "10.11.19-MariaDB")).isSameAs(LockDialects.byName("mariadb"));
        assertThat(LockDialects.forProduct("MySQL", "5.5.5-10.11.19-MariaDB"))
            .as("MariaDB behind a MySQL driver").isSameAs(LockDialects.byName("mariadb"));
    }

    @Test
    void aUrlOrProductOfAnotherDatabaseFindsNoDialect() {
        assertThat(LockDialects.forJdbcUrl("jdbc:h2tcp://host/db")).isNull();
        assertThat(LockDialects.forJdbcUrl("jdbc:mysql://db/app")).as("decided once connected").isNull();
        assertThat(LockDialects.forJdbcUrl("jdbc:oracle:thin:@db:1521/app")).isNull();
        assertThatThrownBy(() -> LockDialects.forProduct("MySQL", "8.0.36"))
            .hasMessageContaining("'MySQL 8.0.36' is not supported")
            .hasMessageContaining("MySQL lacks RETURNING and sequences");
    }

    @Test
    void eachDialectOwnsItsScriptsNamedForItsPlatformAndIsFoundByIt() {
        LockDialects.builtIn().forEach((name, dialect) -> {
            assertThat(dialect.platform()).isEqualTo(name);
            assertThat(LockDialects.forPlatform(name)).isSameAs(dialect);
            for (String location : new String[] { dialect.schemaLocation(), dialect.fencingSchemaLocation() }) {
                assertThat(location).startsWith("io/distlock/jdbc/dialect/").endsWith("-" + name + ".sql");
                assertThat(LockDialectsTests.class.getClassLoader().getResource(location)).as(location).isNotNull();
            }
        });
    }

    @Test
    void thePlatformAndScriptNamesOfEarlierVersionsReadTheMariaDbScripts() {
        assertThat(LockDialects.forPlatform("MySQL")).as("Boot's id of MySQL's driver, and the former platform")
            .isSameAs(LockDialects.byName("mariadb"));
        assertThat(LockDialects.currentScriptLocation("classpath:io/distlock/jdbc/dialect/schema-mysql.sql"))
            .isEqualTo("classpath:io/distlock/jdbc/dialect/schema-mariadb.sql");
        assertThat(LockDialects.currentScriptLocation("io/distlock/jdbc/dialect/fencing-schema-mysql.sql"))
            .isEqualTo("io/distlock/jdbc/dialect/fencing-schema-mariadb.sql");
        assertThat(LockDialects.currentScriptLocation("classpath:db/own/schema-mysql.sql"))
            .as("an application's own script").isEqualTo("classpath:db/own/schema-mysql.sql");
        assertThat(LockDialects.forPlatform("oracle")).isNull();
    }
}
