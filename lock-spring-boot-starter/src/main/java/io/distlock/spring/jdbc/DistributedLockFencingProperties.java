package io.distlock.spring.jdbc;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The fencing table, under {@code distributed-lock.fencing}: a {@code FencingGuard} bean on the application's data
 * source, which the protected writes share a transaction with, and its table, created as the lock table is
 * ({@code distributed-lock.jdbc.initialize-schema}).
 */
@ConfigurationProperties("distributed-lock.fencing")
public class DistributedLockFencingProperties {

    /**
     * Whether to provide a FencingGuard bean for fenced writes, and create its table.
     */
    private boolean enabled;

    /**
     * Name of the fencing table, optionally schema-qualified.
     */
    private String tableName = "fencing_tokens";

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getTableName() {
        return tableName;
    }

    public void setTableName(String tableName) {
        this.tableName = tableName;
    }
}
