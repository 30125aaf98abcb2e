package io.distlock.spring.autoconfigure;

import java.time.Duration;

import io.distlock.core.LockArguments;
import io.distlock.core.TimeSource;
import io.distlock.spring.support.AdviceOrder;
import io.distlock.spring.support.LockAdviceMode;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of distributed locks, under {@code distributed-lock}.
 *
 * <p>Its length is its Javadoc: every property carries the description Spring Boot's configuration metadata and IDEs
 * show, with its default and bounds.
 */
@ConfigurationProperties("distributed-lock")
public class DistributedLockProperties {

    /**
     * Whether to auto-configure distributed locks and apply @DistributedLock.
     */
    private boolean enabled = true;

    /**
     * Name of the lock table, optionally schema-qualified. Its token sequence is named after it, with the suffix
     * "_token_seq".
     */
    private String tableName = "distributed_locks";

    /**
     * Lease length of @DistributedLock methods that set no ttl. The watchdog keeps renewing it while the method runs,
     * so a crashed replica frees the lock within this time.
     */
    private Duration defaultTtl = Duration.ofSeconds(30);

    /**
     * Longest time the watchdog keeps renewing the lease of @DistributedLock methods that set no maxHold.
     */
    private Duration maxHold = Duration.ofHours(1);

    /**
     * Longest lease the lock repository accepts. Longer TTLs are rejected as a likely unit mistake.
     */
    private Duration maxTtl = LockArguments.DEFAULT_MAX_TTL;

    /**
     * Clock that decides when leases expire: the database's, safe across replicas, or the application's, for tests.
     */
    private TimeSource timeSource = TimeSource.DATABASE;

    /**
     * SQL dialect of the lock statements: h2, postgresql or mariadb. Detected from the database when not set, and
     * ignored when the application defines a LockDialect bean.
     */
    private @Nullable String dialect;

    /**
     * Readable prefix of owner tokens, such as a replica name, followed by 128 random bits. Defaults to the host
     * name and process id.
     */
    private @Nullable String ownerPrefix;

    /**
     * Whether to interrupt the thread running a @DistributedLock method when the watchdog finds its lease lost.
     */
    private boolean interruptOnLoss;

    /**
     * Order of the @DistributedLock advisor among other advisors. The default places it just outside
     * the @Transactional advisor, so that locks are released after the commit.
     */
    private int aopOrder = AdviceOrder.DEFAULT;

    /**
     * How the annotations reach the methods they guard: Spring AOP proxies (proxy), or the aspect of
     * io.distlock:lock-aspectj woven into the classes at compile or load time (aspectj), which also guards calls a
     * bean makes on itself and private and final methods.
     */
    private LockAdviceMode mode = LockAdviceMode.PROXY;

    /**
     * When the lock table is checked: at start-up, failing it when the database is down or the table is missing
     * (eager), or on first use, so that the application starts without its database (lazy; set the dialect unless
     * the JDBC URL names the database).
     */
    private StartupCheck startupCheck = StartupCheck.EAGER;

    /**
     * Whether a distributed-lock.* key that no distlock property declares, such as a typo, fails the start. When
     * false, such keys are logged at WARN and ignored.
     */
    private boolean strictProperties = true;

    private final Watchdog watchdog = new Watchdog();

    private final Cleanup cleanup = new Cleanup();

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

    public Duration getDefaultTtl() {
        return defaultTtl;
    }

    public void setDefaultTtl(Duration defaultTtl) {
        this.defaultTtl = defaultTtl;
    }

    public Duration getMaxHold() {
        return maxHold;
    }

    public void setMaxHold(Duration maxHold) {
        this.maxHold = maxHold;
    }

    public Duration getMaxTtl() {
        return maxTtl;
    }

    public void setMaxTtl(Duration maxTtl) {
        this.maxTtl = maxTtl;
    }

    public TimeSource getTimeSource() {
        return timeSource;
    }

    public void setTimeSource(TimeSource timeSource) {
        this.timeSource = timeSource;
    }

    public @Nullable String getDialect() {
        return dialect;
    }

    public void setDialect(@Nullable String dialect) {
        this.dialect = dialect;
    }

    public @Nullable String getOwnerPrefix() {
        return ownerPrefix;
    }

    public void setOwnerPrefix(@Nullable String ownerPrefix) {
        this.ownerPrefix = ownerPrefix;
    }

    public boolean isInterruptOnLoss() {
        return interruptOnLoss;
    }

    public void setInterruptOnLoss(boolean interruptOnLoss) {
        this.interruptOnLoss = interruptOnLoss;
    }

    public int getAopOrder() {
        return aopOrder;
    }

    public void setAopOrder(int aopOrder) {
        this.aopOrder = aopOrder;
    }

    public LockAdviceMode getMode() {
        return mode;
    }

    public void setMode(LockAdviceMode mode) {
        this.mode = mode;
    }

    public StartupCheck getStartupCheck() {
        return startupCheck;
    }

    public void setStartupCheck(StartupCheck startupCheck) {
        this.startupCheck = startupCheck;
    }

    public boolean isStrictProperties() {
        return strictProperties;
    }

    public void setStrictProperties(boolean strictProperties) {
        this.strictProperties = strictProperties;
    }

    public Watchdog getWatchdog() {
        return watchdog;
    }

    public Cleanup getCleanup() {
        return cleanup;
    }

    /**
     * When the lock table is checked.
     */
    public enum StartupCheck {

        /**
         * At start-up: a database that cannot be reached, or a missing lock table, fails the start.
         */
        EAGER,

        /**
         * On first use: the application starts while the database is down, and the {@code distributedLock} health
         * indicator reports DOWN until a check succeeds.
         */
        LAZY
    }

    /**
     * How rows of expired locks are deleted.
     */
    public static class Cleanup {

        /**
         * Whether to delete the rows of locks that expired more than the retention ago, on one replica at a time.
         */
        private boolean enabled = true;

        /**
         * How long the row of an expired lock is kept before it is deleted; at least one minute.
         */
        private Duration retention = Duration.ofHours(1);

        /**
         * Time between two clean-ups, counted from the end of the previous one.
         */
        private Duration interval = Duration.ofMinutes(10);

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Duration getRetention() {
            return retention;
        }

        public void setRetention(Duration retention) {
            this.retention = retention;
        }

        public Duration getInterval() {
            return interval;
        }

        public void setInterval(Duration interval) {
            this.interval = interval;
        }
    }

    /**
     * How the lease watchdog renews leases.
     */
    public static class Watchdog {

        /**
         * Number of threads renewing leases. Renewals of one round run in a few batched statements, so one thread
         * serves thousands of leases.
         */
        private int threads = 1;

        /**
         * Fraction of a lease's TTL after which the watchdog renews it, above 0 and at most 0.9. The default third
         * leaves two more attempts before the lease runs out.
         */
        private double renewRatio = 1.0 / 3;

        public int getThreads() {
            return threads;
        }

        public void setThreads(int threads) {
            this.threads = threads;
        }

        public double getRenewRatio() {
            return renewRatio;
        }

        public void setRenewRatio(double renewRatio) {
            this.renewRatio = renewRatio;
        }
    }
}
