package io.distlock.spring.dashboard;

/**
 * The dashboard's admin mode was asked for without Spring Security and without the property that accepts an
 * unprotected admin page: the start fails rather than let anyone who reaches the page release any lock.
 */
public class DashboardAdminUnprotectedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String path;

    /**
     * Creates the exception.
     *
     * @param path the dashboard's path
     */
    public DashboardAdminUnprotectedException(String path) {
        super("The lock dashboard's admin mode (distributed-lock.dashboard.admin-enabled=true) would let anyone who "
                + "reaches " + path + " release any lock: Spring Security is not configured");
        this.path = path;
    }

    /**
     * The dashboard's path.
     *
     * @return the path
     */
    public String path() {
        return path;
    }
}
