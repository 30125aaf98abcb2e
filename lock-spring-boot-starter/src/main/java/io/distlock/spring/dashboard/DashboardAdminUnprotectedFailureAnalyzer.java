package io.distlock.spring.dashboard;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start refused because the dashboard's admin mode would be unprotected.
 */
class DashboardAdminUnprotectedFailureAnalyzer extends AbstractFailureAnalyzer<DashboardAdminUnprotectedException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, DashboardAdminUnprotectedException cause) {
        return new FailureAnalysis(cause.getMessage() + ".", "Add Spring Security (spring-boot-starter-security), "
                + "protect " + cause.path() + "/** and give the operators who may release locks the role of "
                + "distributed-lock.dashboard.admin-role (default DISTLOCK_ADMIN); or set "
                + "distributed-lock.dashboard.admin-enabled=false for a read-only dashboard; or, only where the "
                + "network alone keeps others out, accept an unprotected admin page with "
                + "distributed-lock.dashboard.allow-unprotected-admin=true.", cause);
    }
}
