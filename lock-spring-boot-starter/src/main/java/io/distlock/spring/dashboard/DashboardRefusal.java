package io.distlock.spring.dashboard;

import org.springframework.http.HttpStatus;

/**
 * A dashboard request refused for a reason the caller can act on: answered as problem details with its status.
 */
final class DashboardRefusal extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final HttpStatus status;

    private final String title;

    DashboardRefusal(HttpStatus status, String title, String detail) {
        super(detail);
        this.status = status;
        this.title = title;
    }

    HttpStatus status() {
        return status;
    }

    String title() {
        return title;
    }
}
