package io.distlock.spring.dashboard;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the lock dashboard.
 */
@ConfigurationProperties("distributed-lock.dashboard")
public class DashboardProperties {

    /**
     * Whether to serve the lock dashboard (needs Spring MVC).
     */
    private boolean enabled;

    /**
     * Path of the dashboard page; its data and assets are served below it.
     */
    private String path = "/distlock";

    /**
     * Whether the dashboard offers a forced release of any lock, and shows full owner tokens, to users with the admin
     * role.
     */
    private boolean adminEnabled;

    /**
     * Role a user needs for the admin mode when Spring Security is configured, without the ROLE_ prefix.
     */
    private String adminRole = "DISTLOCK_ADMIN";

    /**
     * Whether to accept the admin mode without Spring Security, where anyone who reaches the page can release any
     * lock; without it, such a start fails.
     */
    private boolean allowUnprotectedAdmin;

    /**
     * Time between two refreshes of the page.
     */
    private Duration refreshInterval = Duration.ofSeconds(2);

    /**
     * Longest time a dashboard request waits for the lock store before showing it unreachable.
     */
    private Duration storeTimeout = Duration.ofSeconds(3);

    /**
     * How many of the latest lock events (lost leases, refused fenced writes, warnings) the dashboard keeps in memory.
     */
    private int eventCapacity = 200;

    /**
     * Time left on a lease below which the lock is highlighted as about to expire.
     */
    private Duration expiringWithin = Duration.ofSeconds(5);

    /**
     * Hold time above which a lock is highlighted as held long.
     */
    private Duration longHeldAfter = Duration.ofMinutes(10);

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getPath() {
        return path;
    }

    public void setPath(String path) {
        this.path = path;
    }

    public boolean isAdminEnabled() {
        return adminEnabled;
    }

    public void setAdminEnabled(boolean adminEnabled) {
        this.adminEnabled = adminEnabled;
    }

    public String getAdminRole() {
        return adminRole;
    }

    public void setAdminRole(String adminRole) {
        this.adminRole = adminRole;
    }

    public boolean isAllowUnprotectedAdmin() {
        return allowUnprotectedAdmin;
    }

    public void setAllowUnprotectedAdmin(boolean allowUnprotectedAdmin) {
        this.allowUnprotectedAdmin = allowUnprotectedAdmin;
    }

    public Duration getRefreshInterval() {
        return refreshInterval;
    }

    public void setRefreshInterval(Duration refreshInterval) {
        this.refreshInterval = refreshInterval;
    }

    public Duration getStoreTimeout() {
        return storeTimeout;
    }

    public void setStoreTimeout(Duration storeTimeout) {
        this.storeTimeout = storeTimeout;
    }

    public int getEventCapacity() {
        return eventCapacity;
    }

    public void setEventCapacity(int eventCapacity) {
        this.eventCapacity = eventCapacity;
    }

    public Duration getExpiringWithin() {
        return expiringWithin;
    }

    public void setExpiringWithin(Duration expiringWithin) {
        this.expiringWithin = expiringWithin;
    }

    public Duration getLongHeldAfter() {
        return longHeldAfter;
    }

    public void setLongHeldAfter(Duration longHeldAfter) {
        this.longHeldAfter = longHeldAfter;
    }
}
