package io.distlock.spring.dashboard;

import java.security.Principal;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpStatus;

/**
 * Who may do what on the dashboard. Read-only by default: nobody may release a lock and owners are shown as
 * fingerprints. In the admin mode with Spring Security configured, users with the admin role may force-release locks
 * and see full owner tokens, and each release must carry the CSRF token Spring Security checks; in the admin mode
 * accepted without Spring Security, anyone who reaches the page may. Every release must also come from the
 * dashboard's own page: a JSON body (which a cross-site form cannot send) and, where the browser says, from the same
 * origin.
 */
final class DashboardAccess {

    private final Mode mode;

    private final String role;

    private final String path;

    DashboardAccess(DashboardSettings settings, boolean securityConfigured) {
        this.mode = !settings.adminEnabled() ? Mode.READ_ONLY
                : securityConfigured ? Mode.ADMIN : Mode.UNPROTECTED_ADMIN;
        this.role = settings.adminRole();
        this.path = settings.path();
        if (mode == Mode.UNPROTECTED_ADMIN && !settings.allowUnprotectedAdmin()) {
            throw new DashboardAdminUnprotectedException(path);
        }
    }

    Mode mode() {
        return mode;
    }

    String role() {
        return role;
    }

    /**
     * Whether the caller may force-release locks and see full owner tokens.
     *
     * @param request the caller's request
     * @return {@code true} in the admin mode, for a caller with the role when Spring Security is configured
     */
    boolean mayRelease(HttpServletRequest request) {
        return switch (mode) {
            case READ_ONLY -> false;
            case ADMIN -> request.isUserInRole(role);
            case UNPROTECTED_ADMIN -> true;
        };
    }

    /**
     * Refuses a release the caller may not make, saying why.
     *
     * @param request the release request
     * @throws DashboardRefusal when the dashboard is read-only, the caller lacks the role, the request carries no CSRF
     *     check or comes from another site
     */
    void checkRelease(HttpServletRequest request) {
        if (mode == Mode.READ_ONLY) {
            throw new DashboardRefusal(HttpStatus.FORBIDDEN, "Dashboard is read-only", "The lock dashboard is "
                    + "read-only: it releases no lock (distributed-lock.dashboard.admin-enabled is false)");
        }
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null && !site.equals("same-origin")) {
            throw new DashboardRefusal(HttpStatus.FORBIDDEN, "Cross-site release refused", "A forced release must "
                    + "come from the dashboard's own page; this request came from a " + site + " page");
        }
        if (mode == Mode.ADMIN) {
            if (!request.isUserInRole(role)) {
                throw new DashboardRefusal(HttpStatus.FORBIDDEN, "Admin role required", who(request)
                        + " may not release locks: the dashboard's admin mode needs the role " + role);
            }
            if (request.getAttribute(CsrfTokens.ATTRIBUTE) == null) {
                throw new DashboardRefusal(HttpStatus.FORBIDDEN, "CSRF protection required", "Spring Security's "
                        + "CSRF protection is off for " + path + ", so a forced release could be forged by another "
                        + "site: keep CSRF protection on for the dashboard's path");
            }
        }
    }

    /**
     * Who asked, for the log.
     *
     * @param request the request
     * @return the user's name, or {@code anonymous}
     */
    static String who(HttpServletRequest request) {
        Principal user = request.getUserPrincipal();
        return user != null && user.getName() != null ? "user '" + user.getName() + "'" : "an anonymous user";
    }

    /** What the dashboard allows. */
    enum Mode {

        /** No release; owners as fingerprints. */
        READ_ONLY("read-only"),

        /** Releases and full owners for users with the admin role, CSRF-checked by Spring Security. */
        ADMIN("admin"),

        /** Releases and full owners for anyone who reaches the page, accepted by a property. */
        UNPROTECTED_ADMIN("admin, unprotected");

        private final String label;

        Mode(String label) {
            this.label = label;
        }

        String label() {
            return label;
        }
    }
}
