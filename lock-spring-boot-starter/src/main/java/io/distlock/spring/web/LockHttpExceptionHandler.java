package io.distlock.spring.web;

import java.net.URI;

import io.distlock.jdbc.LockTableMissingException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Turns the lock API's errors into RFC 9457 problem details ({@code application/problem+json}). Scoped to
 * {@link LockHttpController}, so the application's other error handling stays as it is.
 */
@RestControllerAdvice(assignableTypes = LockHttpController.class)
public class LockHttpExceptionHandler {

    private static final Logger logger = LoggerFactory.getLogger(LockHttpExceptionHandler.class);

    private static final String TYPE_PREFIX = "urn:distlock:problem:";

    @ExceptionHandler(LockHttpException.class)
    ResponseEntity<ProblemDetail> lockState(LockHttpException ex) {
        return problem(ex.status(), ex.type(), ex.title(), ex.getMessage());
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<ProblemDetail> badArgument(IllegalArgumentException ex) {
        return problem(HttpStatus.BAD_REQUEST, "bad-request", "Invalid lock request", ex.getMessage());
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ProblemDetail> unreadableBody(HttpMessageNotReadableException ex) {
        return problem(HttpStatus.BAD_REQUEST, "bad-request", "Invalid lock request",
                "The body must be a JSON object such as {\"owner\": \"…\", \"ttl\": \"PT30S\"}");
    }

    @ExceptionHandler(MissingServletRequestParameterException.class)
    ResponseEntity<ProblemDetail> missingParameter(MissingServletRequestParameterException ex) {
        return problem(HttpStatus.BAD_REQUEST, "bad-request", "Invalid lock request",
                "The query parameter '" + ex.getParameterName() + "' is required");
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<ProblemDetail> unsupportedMediaType(HttpMediaTypeNotSupportedException ex) {
        return problem(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", "Invalid lock request",
                "The body must be sent as application/json");
    }

    @ExceptionHandler(LockTableMissingException.class)
    ResponseEntity<ProblemDetail> tableMissing(LockTableMissingException ex) {
        logger.warn("Lock API call found no lock table", ex);
        return problem(HttpStatus.SERVICE_UNAVAILABLE, "unavailable", "Lock store unavailable",
                "The lock table is missing; the call changed nothing");
    }

    @ExceptionHandler(DataAccessException.class)
    ResponseEntity<ProblemDetail> databaseUnavailable(DataAccessException ex) {
        logger.warn("Lock API call failed in the database: {}",
                NestedExceptionUtils.getMostSpecificCause(ex).toString());
        logger.debug("The database's failure", ex);
        return problem(HttpStatus.SERVICE_UNAVAILABLE, "unavailable", "Lock store unavailable",
                "The lock table did not answer; the call changed nothing that will not expire by itself");
    }

    private static ResponseEntity<ProblemDetail> problem(HttpStatus status, String type, String title, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(URI.create(TYPE_PREFIX + type));
        problem.setTitle(title);
        return ResponseEntity.status(status).body(problem);
    }
}
