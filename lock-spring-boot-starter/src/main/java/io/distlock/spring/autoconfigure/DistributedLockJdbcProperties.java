package io.distlock.spring.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.jdbc.init.DatabaseInitializationProperties;

/**
 * Initialisation of the lock table, under {@code distributed-lock.jdbc}: by default the table and its token sequence
 * are created on embedded databases only, from the script lock-core ships for the database.
 */
@ConfigurationProperties("distributed-lock.jdbc")
public class DistributedLockJdbcProperties extends DatabaseInitializationProperties {

    private static final String DEFAULT_SCHEMA_LOCATION =
            "classpath:io/distlock/core/jdbc/dialect/schema-@@platform@@.sql";

    @Override
    public String getDefaultSchemaLocation() {
        return DEFAULT_SCHEMA_LOCATION;
    }
}
