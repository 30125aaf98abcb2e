package io.distlock.jdbc.migration;

import java.util.Locale;

import liquibase.change.custom.CustomTaskChange;
import liquibase.database.Database;
import liquibase.database.jvm.JdbcConnection;
import liquibase.exception.CustomChangeException;
import liquibase.exception.ValidationErrors;
import liquibase.resource.ResourceAccessor;
import org.jspecify.annotations.Nullable;

/**
 * Creates the lock table (with its token sequence and slot table) or the fencing table from the library's own script
 * for the database Liquibase runs on, renamed to the configured table. The changelog
 * {@code io/distlock/jdbc/migration/distlock-changelog.xml} uses it; its parameters are {@code schema}
 * ({@code lock-table} or {@code fencing-table}), {@code tableName} and {@code version}.
 */
public final class LiquibaseSchemaChange implements CustomTaskChange {

    private @Nullable String schema;

    private @Nullable String tableName;

    private @Nullable String version;

    /**
     * Which schema to create.
     *
     * @param schema {@code lock-table} or {@code fencing-table}
     */
    public void setSchema(String schema) {
        this.schema = schema;
    }

    /**
     * The table's name; the default table when blank.
     *
     * @param tableName a plain SQL identifier, optionally schema-qualified
     */
    public void setTableName(String tableName) {
        this.tableName = tableName;
    }

    /**
     * The schema's version in the changelog: it changes when a later version of the library changes the script, so
     * that the change set's checksum changes and Liquibase runs it again.
     *
     * @param version the version
     */
    public void setVersion(String version) {
        this.version = version;
    }

    @Override
    public void execute(Database database) throws CustomChangeException {
        if (!(database.getConnection() instanceof JdbcConnection jdbc)) {
            throw new CustomChangeException("distlock's " + schema + " change needs a JDBC connection; Liquibase's "
                    + "offline mode (update-sql) cannot run it: create the table with the script from the lock-jdbc "
                    + "jar");
        }
        try {
            scripts().run(jdbc.getUnderlyingConnection(), tableName);
        }
        catch (Exception ex) {
            throw new CustomChangeException("distlock's " + schema + " change failed on " + database
                    .getDatabaseProductName() + ": " + ex.getMessage(), ex);
        }
    }

    @Override
    public String getConfirmationMessage() {
        return "distlock " + schema + " " + (tableName == null ? "" : tableName) + " (version " + version
                + ") is in place";
    }

    @Override
    public void setUp() {
    }

    @Override
    public void setFileOpener(ResourceAccessor resourceAccessor) {
    }

    @Override
    public ValidationErrors validate(Database database) {
        ValidationErrors errors = new ValidationErrors();
        try {
            scripts();
        }
        catch (IllegalArgumentException ex) {
            errors.addError(ex.getMessage());
        }
        return errors;
    }

    private SchemaScripts scripts() {
        String name = schema == null ? "" : schema.strip().toLowerCase(Locale.ROOT);
        return switch (name) {
            case "lock-table" -> SchemaScripts.LOCK_TABLE;
            case "fencing-table" -> SchemaScripts.FENCING_TABLE;
            default -> throw new IllegalArgumentException("distlock's Liquibase change: attribute 'schema' = '"
                    + schema + "' is not one of lock-table, fencing-table");
        };
    }
}
