package io.distlock.spring.web;

import org.springframework.http.HttpStatus;

/**
 * A lock call that the lock's state refuses: answered as problem details with the given status.
 */
final class LockHttpException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final HttpStatus status;

    private final String type;

    private final String title;

    LockHttpException(HttpStatus status, String type, String title, String detail) {
        super(detail);
        this.status = status;
        this.type = type;
        this.title = title;
    }

    HttpStatus status() {
        return status;
    }

    String type() {
        return type;
    }

    String title() {
        return title;
    }
}
