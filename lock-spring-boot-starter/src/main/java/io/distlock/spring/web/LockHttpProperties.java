package io.distlock.spring.web;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the HTTP lock API.
 */
@ConfigurationProperties("distributed-lock.http")
public class LockHttpProperties {

    /**
     * Whether to serve the HTTP lock API (needs Spring MVC).
     */
    private boolean enabled;

    /**
     * Path under which the lock endpoints are served.
     */
    private String basePath = "/locks";

    /**
     * Longest TTL a client may ask for.
     */
    private Duration maxTtl = Duration.ofHours(1);

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getBasePath() {
        return basePath;
    }

    public void setBasePath(String basePath) {
        this.basePath = basePath;
    }

    public Duration getMaxTtl() {
        return maxTtl;
    }

    public void setMaxTtl(Duration maxTtl) {
        this.maxTtl = maxTtl;
    }
}
