package io.distlock.jdbc.migration;

import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;
import org.jspecify.annotations.Nullable;

/**
 * A repeatable Flyway migration that runs one of the library's schema scripts, named by a Flyway placeholder: it has
 * no version, so it never competes with the application's own numbered migrations, and Flyway runs it again only when
 * a later version of the library changes the script.
 */
abstract class ScriptMigration implements JavaMigration {

    private final SchemaScripts scripts;

    private final String placeholder;

    private final String description;

    ScriptMigration(SchemaScripts scripts, String placeholder, String description) {
        this.scripts = scripts;
        this.placeholder = placeholder;
        this.description = description;
    }

    @Override
    public @Nullable MigrationVersion getVersion() {
        return null;
    }

    @Override
    public String getDescription() {
        return description;
    }

    @Override
    public Integer getChecksum() {
        return scripts.checksum();
    }

    @Override
    public boolean canExecuteInTransaction() {
        return true;
    }

    @Override
    public void migrate(Context context) throws Exception {
        scripts.run(context.getConnection(), context.getConfiguration().getPlaceholders().get(placeholder));
    }
}
