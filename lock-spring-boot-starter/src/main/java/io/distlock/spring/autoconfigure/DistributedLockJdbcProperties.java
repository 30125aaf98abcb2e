package io.distlock.spring.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * The lock table on JDBC, under {@code distributed-lock.jdbc}: how long each lock statement may run, and the table's
 * initialisation. By default the table and its token sequence are created on embedded databases only, from the
 * script lock-core ships for the database. The initialisation settings are those of Spring Boot's own script
 * initializers, declared here rather than inherited so that the class binds alike on every supported Spring Boot
 * generation.
 */
@ConfigurationProperties("distributed-lock.jdbc")
public class DistributedLockJdbcProperties {

    private static final String DEFAULT_SCHEMA_LOCATION =
            "classpath:io/distlock/core/jdbc/dialect/schema-@@platform@@.sql";

    /**
     * Longest time each lock statement may run, waits for row locks held by other sessions included, at least 1s.
     * An acquire that runs out of time answers "not acquired"; other statements fail with a QueryTimeoutException.
     */
    private Duration statementTimeout = Duration.ofSeconds(5);

    /**
     * Path to the SQL script that creates the lock table and its token sequence.
     */
    private String schema = DEFAULT_SCHEMA_LOCATION;

    /**
     * Platform to use in the schema script location if the @@platform@@ placeholder is used.
     */
    private @Nullable String platform;

    /**
     * Lock table initialization mode.
     */
    private DatabaseInitializationMode initializeSchema = DatabaseInitializationMode.EMBEDDED;

    /**
     * Whether initialization should continue when an error occurs when applying the schema script.
     */
    private boolean continueOnError = true;

    public Duration getStatementTimeout() {
        return statementTimeout;
    }

    public void setStatementTimeout(Duration statementTimeout) {
        this.statementTimeout = statementTimeout;
    }

    public String getSchema() {
        return schema;
    }

    public void setSchema(String schema) {
        this.schema = schema;
    }

    public @Nullable String getPlatform() {
        return platform;
    }

    public void setPlatform(@Nullable String platform) {
        this.platform = platform;
    }

    public DatabaseInitializationMode getInitializeSchema() {
        return initializeSchema;
    }

    public void setInitializeSchema(DatabaseInitializationMode initializeSchema) {
        this.initializeSchema = initializeSchema;
    }

    public boolean isContinueOnError() {
        return continueOnError;
    }

    public void setContinueOnError(boolean continueOnError) {
        this.continueOnError = continueOnError;
    }
}
