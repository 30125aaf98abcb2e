package io.distlock.spring.jdbc;

import java.time.Duration;

import io.distlock.jdbc.JdbcReplication;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * The lock table on JDBC, under {@code distributed-lock.jdbc}: how long each lock statement may run, whether releases
 * wait until they are durable, whether acquisitions wait for a standby, whether releases notify the waiters of other processes (PostgreSQL), and the table's
 * initialisation. By default the table and its token sequence are created on embedded databases only, from the
 * script lock-core ships for the database. The initialisation settings are those of Spring Boot's own script
 * initializers, declared here rather than inherited so that the class binds alike on every supported Spring Boot
 * generation.
 */
@ConfigurationProperties("distributed-lock.jdbc")
public class DistributedLockJdbcProperties {

    private static final String DEFAULT_SCHEMA_LOCATION =
            "classpath:io/distlock/jdbc/dialect/schema-@@platform@@.sql";

    /**
     * Longest time each lock statement may run, waits for row locks held by other sessions included, and longest wait
     * for a pooled connection, at least 1s. An acquire that runs out of time answers "not acquired"; other statements
     * fail with a QueryTimeoutException; an operation that gets no connection in time fails with a
     * CannotGetJdbcConnectionException.
     */
    private Duration statementTimeout = Duration.ofSeconds(5);

    /**
     * Whether each release waits until its commit is durable. By default a release on PostgreSQL commits without
     * waiting for the WAL flush: one lost in a crash of the database leaves the lock held by its old owner until its
     * TTL. Acquisitions and renewals are always durable.
     */
    private boolean durableRelease;

    /**
     * Whether, on PostgreSQL, a release that frees a lock notifies waiters in other processes (LISTEN/NOTIFY), so
     * that they take it at once instead of at their next poll. The lock repository then listens on one connection
     * of the pool while threads wait. Latency only; ignored on other databases.
     */
    private boolean notifyWaiters = true;

    /**
     * Whether the commits of acquisitions and renewals wait for a standby, so that a failover keeps them: async
     * (the server's own setting), synchronous (PostgreSQL's synchronous_commit=on for the lock statements' sessions
     * only) or remote-apply (synchronous_commit=remote_apply). Waits only for the standbys the server names in
     * synchronous_standby_names; an acquisition whose wait ends at the statement timeout answers "not acquired".
     * Asking for it on another database, or on a server that names no synchronous standby, is told at start-up at
     * WARN, or fails start-up with require-synchronous-standby.
     */
    private JdbcReplication replication = JdbcReplication.ASYNC;

    /**
     * Whether start-up fails unless the lock statements' commits wait for a synchronous standby (on PostgreSQL:
     * synchronous_standby_names set and a waiting synchronous_commit), rather than telling what is missing at WARN.
     */
    private boolean requireSynchronousStandby;

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

    public boolean isDurableRelease() {
        return durableRelease;
    }

    public void setDurableRelease(boolean durableRelease) {
        this.durableRelease = durableRelease;
    }

    public JdbcReplication getReplication() {
        return replication;
    }

    public void setReplication(JdbcReplication replication) {
        this.replication = replication;
    }

    public boolean isRequireSynchronousStandby() {
        return requireSynchronousStandby;
    }

    public void setRequireSynchronousStandby(boolean requireSynchronousStandby) {
        this.requireSynchronousStandby = requireSynchronousStandby;
    }

    public boolean isNotifyWaiters() {
        return notifyWaiters;
    }

    public void setNotifyWaiters(boolean notifyWaiters) {
        this.notifyWaiters = notifyWaiters;
    }

    /**
     * These settings with another script location and platform, for an initializer that needs them filled in.
     *
     * @param schema the script location
     * @param platform the platform, or {@code null} to detect it
     * @return a copy; these settings stay as they are
     */
    DistributedLockJdbcProperties with(String schema, @Nullable String platform) {
        DistributedLockJdbcProperties copy = new DistributedLockJdbcProperties();
        copy.setStatementTimeout(statementTimeout);
        copy.setDurableRelease(durableRelease);
        copy.setNotifyWaiters(notifyWaiters);
        copy.setReplication(replication);
        copy.setRequireSynchronousStandby(requireSynchronousStandby);
        copy.setSchema(schema);
        copy.setPlatform(platform);
        copy.setInitializeSchema(initializeSchema);
        copy.setContinueOnError(continueOnError);
        return copy;
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
