/**
 * The lock table and the fencing table as migrations, for applications whose schema Flyway or Liquibase owns: Flyway
 * finds {@link io.distlock.jdbc.migration.LockTableFlywayMigration} and
 * {@link io.distlock.jdbc.migration.FencingTableFlywayMigration} in the location
 * {@code classpath:io/distlock/jdbc/migration}; Liquibase includes the changelog
 * {@code io/distlock/jdbc/migration/distlock-changelog.xml}. Both run the same scripts as
 * {@link io.distlock.jdbc.LockSchema} and {@link io.distlock.jdbc.FencingSchema}, for the database they find,
 * renamed to the configured tables, and both may run again safely.
 */
@NullMarked
package io.distlock.jdbc.migration;

import org.jspecify.annotations.NullMarked;
