package io.distlock.spring.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import io.distlock.jdbc.LockSchema;
import io.distlock.jdbc.LockTableName;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.jdbc.dialect.LockDialects;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.jdbc.DatabaseDriver;
import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.jdbc.init.PlatformPlaceholderDatabaseDriverResolver;
import org.springframework.boot.sql.init.DatabaseInitializationSettings;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.Resource;
import org.springframework.util.StringUtils;

/**
 * Creates the lock table and its token sequence from the script for the database (H2, PostgreSQL, MariaDB), renamed
 * to the configured table name. The script's platform is {@code distributed-lock.jdbc.platform} when set, else the
 * {@linkplain LockDialect#platform() platform of the lock dialect} when one is given, else the one of the dialect the
 * JDBC driver's database has ({@link LockDialects#forPlatform}: MariaDB reached through MySQL's driver included). A
 * platform or a script location of an earlier version ({@code mysql}, {@code schema-mysql.sql}) reads the script as
 * it is called now ({@link LockDialects#currentScriptLocation}).
 */
public class DistributedLockDataSourceScriptDatabaseInitializer extends DataSourceScriptDatabaseInitializer {


    private final LockTableName table;

    /**
     * Creates the initializer.
     *
     * @param dataSource the data source holding the lock table
     * @param properties where the script is and when it runs
     * @param tableName the lock table's name, which replaces {@code distributed_locks} in the script
     */
    public DistributedLockDataSourceScriptDatabaseInitializer(DataSource dataSource,
            DistributedLockJdbcProperties properties, String tableName) {
        this(dataSource, properties, tableName, null);
    }

    /**
     * Creates the initializer for a database whose lock dialect is known.
     *
     * @param dataSource the data source holding the lock table
     * @param properties where the script is and when it runs
     * @param tableName the lock table's name, which replaces {@code distributed_locks} in the script
     * @param dialect the lock dialect, whose platform picks the script unless the properties name one; {@code null}
     *     to pick it from the JDBC driver
     */
    public DistributedLockDataSourceScriptDatabaseInitializer(DataSource dataSource,
            DistributedLockJdbcProperties properties, String tableName, @Nullable LockDialect dialect) {
        super(dataSource, settings(dataSource, withPlatform(properties, dialect)));
        this.table = new LockTableName(tableName);
    }

    private static DistributedLockJdbcProperties withPlatform(DistributedLockJdbcProperties properties,
            @Nullable LockDialect dialect) {
        if (dialect == null || StringUtils.hasText(properties.getPlatform())) {
            return properties;
        }
        return properties.with(properties.getSchema(), dialect.platform());
    }

    /** The script, its platform resolved from the properties or else the JDBC driver, and when it runs. */
    private static DatabaseInitializationSettings settings(DataSource dataSource,
            DistributedLockJdbcProperties properties) {
        PlatformPlaceholderDatabaseDriverResolver resolver = new PlatformPlaceholderDatabaseDriverResolver();
        for (DatabaseDriver driver : DatabaseDriver.values()) {
            LockDialect dialect = LockDialects.forPlatform(driver.getId());
            if (dialect != null) {
                resolver = resolver.withDriverPlatform(driver, dialect.platform());
            }
        }
        String platform = properties.getPlatform();
        LockDialect named = StringUtils.hasText(platform) ? LockDialects.forPlatform(platform) : null;
        List<String> locations = StringUtils.hasText(platform)
                ? resolver.resolveAll(named != null ? named.platform() : platform, properties.getSchema())
                : resolver.resolveAll(dataSource, properties.getSchema());
        DatabaseInitializationSettings settings = new DatabaseInitializationSettings();
        settings.setSchemaLocations(locations.stream().map(LockDialects::currentScriptLocation).toList());
        settings.setMode(properties.getInitializeSchema());
        settings.setContinueOnError(properties.isContinueOnError());
        return settings;
    }

    @Override
    protected void runScripts(Scripts scripts) {
        if (!renames()) {
            super.runScripts(scripts);
            return;
        }
        Charset encoding = scripts.getEncoding() != null ? scripts.getEncoding() : StandardCharsets.UTF_8;
        List<Resource> renamed = new ArrayList<>();
        for (Resource script : scripts) {
            renamed.add(renamed(script, encoding));
        }
        super.runScripts(new Scripts(renamed).continueOnError(scripts.isContinueOnError())
                .separator(scripts.getSeparator()).encoding(encoding));
    }

    /**
     * Whether the scripts name another table than the one they were written for.
     *
     * @return {@code true} unless the table is {@code distributed_locks}
     */
    boolean renames() {
        return !table.equals(LockTableName.DEFAULT);
    }

    /**
     * Renames the table in a script.
     *
     * @param script a script written for {@code distributed_locks}
     * @return the script for the configured table
     */
    String rename(String script) {
        return LockSchema.rename(script, table);
    }

    private Resource renamed(Resource script, Charset encoding) {
        try {
            String text = rename(script.getContentAsString(encoding));
            return new ByteArrayResource(text.getBytes(encoding), script.getDescription() + " renamed");
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read lock table script " + script, ex);
        }
    }
}
