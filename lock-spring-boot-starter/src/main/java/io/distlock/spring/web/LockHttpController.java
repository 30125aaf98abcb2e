package io.distlock.spring.web;

import java.time.Duration;

import io.distlock.core.LockArguments;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.LockResult;
import io.distlock.core.RenewResult;
import io.distlock.spring.support.DurationText;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The lock API over HTTP, for callers that bring their own owner token: a non-blocking acquire, a read that
 * treats expired locks as absent, an owner-checked release and an owner-checked renewal. Every decision is the lock
 * repository's single atomic statement; bad input is refused before any statement runs.
 *
 * <p>Resource names are path segments, stored as they decode. An unencoded {@code ;} in the path is refused: Spring
 * MVC would read it as the start of matrix parameters and drop the rest of the segment, so {@code job;eu} and
 * {@code job;us} would both lock {@code job}. Encoded as {@code %3B}, it is part of the name.
 */
@RestController
@RequestMapping("${distributed-lock.http.base-path:/locks}")
public class LockHttpController {

    private final LockRepository repository;

    private final Duration maxTtl;

    /**
     * Creates the controller.
     *
     * @param repository the lock table
     * @param properties the API's settings
     */
    public LockHttpController(LockRepository repository, LockHttpProperties properties) {
        this.repository = repository;
        this.maxTtl = properties.getMaxTtl();
    }

    /**
     * Takes the lock, or renews it when the caller already holds it; answers at once when another owner holds it.
     *
     * @param resource the resource, URL-decoded from the path
     * @param request the owner and TTL
     * @param http the HTTP request, whose path is checked for matrix parameters
     * @return the lock with {@code acquired: true}, or {@code acquired: false}
     */
    @PostMapping("/{resource}")
    public LockView acquire(@PathVariable String resource, @RequestBody LeaseRequest request,
            HttpServletRequest http) {
        requireNoMatrixParameters(http, resource);
        String owner = validOwner(request.owner());
        Duration ttl = validTtl(request.ttl());
        return repository.acquire(LockArguments.requireResource(resource), owner, ttl).map(LockView::acquired)
                .orElseGet(() -> LockView.notAcquired(resource));
    }

    /**
     * Reads the live lock on a resource.
     *
     * @param resource the resource
     * @param http the HTTP request, whose path is checked for matrix parameters
     * @return the lock
     */
    @GetMapping("/{resource}")
    public LockView find(@PathVariable String resource, HttpServletRequest http) {
        requireNoMatrixParameters(http, resource);
        LockRecord record = repository.find(LockArguments.requireResource(resource))
                .orElseThrow(() -> notFound(resource));
        return LockView.of(record);
    }

    /**
     * Releases the caller's lock.
     *
     * @param resource the resource
     * @param owner the owner token that holds it
     * @param http the HTTP request, whose path is checked for matrix parameters
     * @return 204 when released
     */
    @DeleteMapping("/{resource}")
    public ResponseEntity<Void> release(@PathVariable String resource, @RequestParam String owner,
            HttpServletRequest http) {
        requireNoMatrixParameters(http, resource);
        LockResult result = repository.release(LockArguments.requireResource(resource), validOwner(owner));
        return switch (result) {
            case APPLIED -> ResponseEntity.noContent().build();
            case NOT_FOUND -> throw notFound(resource);
            case FORBIDDEN -> throw new LockHttpException(HttpStatus.FORBIDDEN, "forbidden", "Owner mismatch",
                    "The lock on '" + resource + "' exists but is held by another owner");
        };
    }

    /**
     * Extends the caller's live lease.
     *
     * @param resource the resource
     * @param request the owner and the new TTL, counted from now
     * @param http the HTTP request, whose path is checked for matrix parameters
     * @return the lock with its new expiry
     */
    @PostMapping("/{resource}/renew")
    public LockView renew(@PathVariable String resource, @RequestBody LeaseRequest request,
            HttpServletRequest http) {
        requireNoMatrixParameters(http, resource);
        String owner = validOwner(request.owner());
        Duration ttl = validTtl(request.ttl());
        RenewResult result = repository.renew(LockArguments.requireResource(resource), owner, ttl);
        if (result.record() != null) {
            return LockView.of(result.record());
        }
        throw new LockHttpException(HttpStatus.CONFLICT, "conflict", "Lease cannot be renewed",
                result.status() == LockResult.FORBIDDEN
                        ? "The lock on '" + resource + "' is held by another owner"
                        : "No live lock on '" + resource + "' is held by this owner: it expired or was released");
    }

    /**
     * Refuses a path with an unencoded {@code ;}: what follows it in a segment are matrix parameters to Spring MVC,
     * which are not part of the path variable, so the call would silently act on a shorter name.
     */
    private static void requireNoMatrixParameters(HttpServletRequest http, String resource) {
        String uri = http.getRequestURI();
        String path = uri.substring(Math.min(http.getContextPath().length(), uri.length()));
        if (path.indexOf(';') >= 0) {
            throw new IllegalArgumentException("The path " + path + " contains ';', which Spring MVC reads as the "
                    + "start of matrix parameters and drops, so the call would act on '" + resource + "' instead: "
                    + "URL-encode ';' in resource names as %3B");
        }
    }

    private static LockHttpException notFound(String resource) {
        return new LockHttpException(HttpStatus.NOT_FOUND, "not-found", "Lock not found",
                "No live lock on '" + resource + "'");
    }

    private static String validOwner(@Nullable String owner) {
        return LockArguments.requireOwner(owner);
    }

    private Duration validTtl(@Nullable String ttl) {
        if (ttl == null || ttl.isBlank()) {
            throw new IllegalArgumentException("ttl is required: " + DurationText.FORMS);
        }
        Duration parsed;
        try {
            parsed = DurationText.parse(ttl);
        }
        catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException("ttl '" + ttl + "' " + ex.getMessage());
        }
        return LockArguments.requireTtl(parsed, maxTtl);
    }
}
