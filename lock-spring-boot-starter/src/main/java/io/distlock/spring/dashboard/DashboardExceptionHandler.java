package io.distlock.spring.dashboard;

import java.net.URI;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Turns the dashboard's errors into RFC 9457 problem details ({@code application/problem+json}) that name what is
 * wrong. Scoped to the dashboard's controller.
 */
@RestControllerAdvice(assignableTypes = DashboardController.class)
class DashboardExceptionHandler {

    private static final Logger logger = LoggerFactory.getLogger(DashboardExceptionHandler.class);

    private static final String TYPE_PREFIX = "urn:distlock:dashboard:";

    @ExceptionHandler(DashboardRefusal.class)
    ResponseEntity<ProblemDetail> refused(DashboardRefusal ex) {
        return problem(ex.status(), ex.title(), ex.getMessage());
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<ProblemDetail> badArgument(IllegalArgumentException ex) {
        return problem(HttpStatus.BAD_REQUEST, "Invalid dashboard request", ex.getMessage());
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ProblemDetail> unreadableBody(HttpMessageNotReadableException ex) {
        return problem(HttpStatus.BAD_REQUEST, "Invalid dashboard request", "The body must be a JSON object such as "
                + DashboardController.ReleaseRequest.EXAMPLE);
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<ProblemDetail> unsupportedMediaType(HttpMediaTypeNotSupportedException ex) {
        return problem(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Invalid dashboard request",
                "The body must be sent as application/json");
    }

    @ExceptionHandler(DataAccessException.class)
    ResponseEntity<ProblemDetail> storeUnavailable(DataAccessException ex) {
        logger.warn("A lock dashboard call failed in the lock store", ex);
        return problem(HttpStatus.SERVICE_UNAVAILABLE, "Lock store unavailable", "The lock store did not answer; "
                + "nothing was released");
    }

    private static ResponseEntity<ProblemDetail> problem(HttpStatus status, String title, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(URI.create(TYPE_PREFIX + title.toLowerCase(java.util.Locale.ROOT).replace(' ', '-')));
        problem.setTitle(title);
        return ResponseEntity.status(status).headers(DashboardController.secured()).body(problem);
    }
}
