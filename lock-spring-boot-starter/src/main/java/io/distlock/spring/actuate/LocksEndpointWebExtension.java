package io.distlock.spring.actuate;

import java.util.function.Supplier;

import io.distlock.core.LockArguments;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;

/**
 * The {@code locks} endpoint over HTTP, with the status codes an operator's tools act on: 400 with the reason for a
 * lock name the library refuses (blank, over 255 characters, control characters), and 503 with the reason when the
 * lock store does not answer within its bound, instead of a 500 for either.
 */
@EndpointWebExtension(endpoint = LocksEndpoint.class)
public class LocksEndpointWebExtension {

    private static final Logger logger = LoggerFactory.getLogger(LocksEndpointWebExtension.class);

    private final LocksEndpoint endpoint;

    /**
     * Creates the extension.
     *
     * @param endpoint the endpoint whose answers it gives over HTTP
     */
    public LocksEndpointWebExtension(LocksEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * Lists unexpired locks and this process's leases.
     *
     * @return 200 with the descriptor, or 503 when the lock store does not answer
     */
    @ReadOperation
    public WebEndpointResponse<Object> locks() {
        return answer(endpoint::locks, WebEndpointResponse.STATUS_NOT_FOUND);
    }

    /**
     * Reads one live lock.
     *
     * @param resource the resource
     * @return 200 with the lock, 404 when absent or expired, 400 for a name the library refuses, 503 when the lock
     *     store does not answer
     */
    @ReadOperation
    public WebEndpointResponse<Object> lock(@Selector String resource) {
        return checked(resource, () -> endpoint.lock(resource), WebEndpointResponse.STATUS_NOT_FOUND);
    }

    /**
     * Releases a live lock whoever holds it.
     *
     * @param resource the resource
     * @return 200 with the lock released, 204 when there was none, 400 for a name the library refuses, 503 when the
     *     lock store does not answer
     */
    @DeleteOperation
    public WebEndpointResponse<Object> forceRelease(@Selector String resource) {
        return checked(resource, () -> endpoint.forceRelease(resource), WebEndpointResponse.STATUS_NO_CONTENT);
    }

    private WebEndpointResponse<Object> checked(String resource, Supplier<@Nullable Object> call, int whenNone) {
        try {
            LockArguments.requireResource(resource);
        }
        catch (IllegalArgumentException ex) {
            return problem(WebEndpointResponse.STATUS_BAD_REQUEST, "Bad Request", ex.getMessage());
        }
        return answer(call, whenNone);
    }

    private static WebEndpointResponse<Object> answer(Supplier<@Nullable Object> call, int whenNone) {
        try {
            Object body = call.get();
            return body != null ? new WebEndpointResponse<>(body) : new WebEndpointResponse<>(whenNone);
        }
        catch (DataAccessException ex) {
            // The most specific cause says most, unless it says nothing (an interrupted wait for a connection).
            String specific = NestedExceptionUtils.getMostSpecificCause(ex).getMessage();
            String cause = specific != null ? specific : ex.getMessage();
            logger.warn("The locks endpoint could not reach the lock store: {}", cause);
            logger.debug("The lock store's failure", ex);
            return problem(WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE, "Service Unavailable",
                    "The lock store did not answer: " + cause);
        }
    }

    private static WebEndpointResponse<Object> problem(int status, String error, @Nullable String message) {
        return new WebEndpointResponse<>(new Problem(status, error, String.valueOf(message)), status);
    }

    /**
     * Why the endpoint could not answer.
     *
     * @param status the HTTP status
     * @param error the status's reason phrase
     * @param message what went wrong, for the operator
     */
    public record Problem(int status, String error, String message) implements OperationResponseBody {
    }
}
