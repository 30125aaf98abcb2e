package io.distlock.jdbc.migration;

/**
 * Creates the lock table, its token sequence and its slot table with Flyway, and adds the columns later versions of
 * the library added. Flyway finds it in the location {@code classpath:io/distlock/jdbc/migration}; the table is
 * {@code distributed_locks} unless the placeholder {@code distlock_table} names another.
 */
public final class LockTableFlywayMigration extends ScriptMigration {

    /** The placeholder that names the lock table. */
    public static final String TABLE_PLACEHOLDER = "distlock_table";

    /** Creates the migration, as Flyway does when it finds it. */
    public LockTableFlywayMigration() {
        super(SchemaScripts.LOCK_TABLE, TABLE_PLACEHOLDER, "distlock lock table");
    }
}
