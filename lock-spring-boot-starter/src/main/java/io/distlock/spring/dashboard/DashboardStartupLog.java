package io.distlock.spring.dashboard;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;

/**
 * Says at INFO, once the application is ready, where the dashboard is and what it allows; an admin mode without
 * Spring Security is said at WARN and among the dashboard's events as well.
 */
final class DashboardStartupLog implements ApplicationListener<ApplicationReadyEvent> {

    private static final Logger logger = LoggerFactory.getLogger(DashboardStartupLog.class);

    private final DashboardSettings settings;

    private final DashboardAccess access;

    private final DashboardEvents events;

    DashboardStartupLog(DashboardSettings settings, DashboardAccess access, DashboardEvents events) {
        this.settings = settings;
        this.access = access;
        this.events = events;
    }

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        String url = url(event.getApplicationContext().getEnvironment());
        switch (access.mode()) {
            case READ_ONLY -> logger.info("Lock dashboard at {} (read-only)", url);
            case ADMIN -> logger.info("Lock dashboard at {} (admin: users with role {} may force-release locks, "
                    + "with Spring Security's CSRF protection)", url, access.role());
            case UNPROTECTED_ADMIN -> {
                String warning = "The lock dashboard at " + url + " runs its admin mode without Spring Security "
                        + "(accepted by distributed-lock.dashboard.allow-unprotected-admin): anyone who reaches it can "
                        + "release any lock";
                logger.info("Lock dashboard at {} (admin, unprotected)", url);
                logger.warn(warning);
                events.add(DashboardEvents.Kind.STARTUP_WARNING, "", warning);
            }
        }
    }

    private String url(Environment environment) {
        String scheme = environment.getProperty("server.ssl.enabled", Boolean.class, false) ? "https" : "http";
        String host = environment.getProperty("server.address", "localhost");
        String port = environment.getProperty("local.server.port", environment.getProperty("server.port", "8080"));
        String context = environment.getProperty("server.servlet.context-path", "");
        return scheme + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port
                + (context.equals("/") ? "" : context) + settings.path();
    }
}
