/**
 * The lock table and the fencing table as migrations, for applications whose schema Flyway or Liquibase owns: Flyway
 * finds {@link io.distlock.core.jdbc.migration.LockTableFlywayMigration} and
 * {@link io.distlock.core.jdbc.migration.FencingTableFlywayMigration} in the location
 * {@code classpath:io/distlock/core/jdbc/migration}; Liquibase includes the changelog
 * {@code io/distlock/core/jdbc/migration/distlock-changelog.xml}. Both run the same scripts as
 * {@link io.distlock.core.jdbc.LockSchema} and {@link io.distlock.core.jdbc.FencingSchema}, for the database they find,
 * renamed to the configured tables, and both may run again safely.
 */
@NullMarked
package io.distlock.core.jdbc.migration;

import org.jspecify.annotations.NullMarked;
