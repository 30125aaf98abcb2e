package io.distlock.jdbc.migration;

/**
 * Creates the fencing table a {@link io.distlock.jdbc.FencingGuard} keeps the highest accepted tokens in, with
 * Flyway. Flyway finds it in the location {@code classpath:io/distlock/jdbc/migration}; the table is
 * {@code fencing_tokens} unless the placeholder {@code distlock_fencing_table} names another.
 */
public final class FencingTableFlywayMigration extends ScriptMigration {

    /** The placeholder that names the fencing table. */
    public static final String TABLE_PLACEHOLDER = "distlock_fencing_table";

    /** Creates the migration, as Flyway does when it finds it. */
    public FencingTableFlywayMigration() {
        super(SchemaScripts.FENCING_TABLE, TABLE_PLACEHOLDER, "distlock fencing table");
    }
}
