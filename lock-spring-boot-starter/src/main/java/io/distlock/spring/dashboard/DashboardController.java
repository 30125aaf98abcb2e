package io.distlock.spring.dashboard;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.WebRequest;

/**
 * The dashboard's page, its assets and its two calls: the state of a refresh, read by every viewer, and the forced
 * release of the admin mode. Every answer forbids framing and sniffing; the page's Content-Security-Policy allows no
 * script but its own.
 */
@RestController
@RequestMapping("${distributed-lock.dashboard.path:/distlock}")
class DashboardController {

    private final DashboardStates states;

    private final DashboardAccess access;

    private final ForcedReleases releases;

    private final DashboardPage page;

    private final DashboardSettings settings;

    DashboardController(DashboardStates states, DashboardAccess access, ForcedReleases releases, DashboardPage page,
            DashboardSettings settings) {
        this.states = states;
        this.access = access;
        this.releases = releases;
        this.page = page;
        this.settings = settings;
    }

    @GetMapping(path = { "", "/" }, produces = MediaType.TEXT_HTML_VALUE)
    ResponseEntity<String> page(HttpServletRequest request) {
        String html = page.render(request.getContextPath() + settings.path(), access.mode().label(),
                access.mayRelease(request), settings.refreshInterval().toMillis(), pageTimeoutMillis(),
                CsrfTokens.of(request));
        return ResponseEntity.ok().headers(secured()).cacheControl(CacheControl.noStore())
                .contentType(new MediaType(MediaType.TEXT_HTML, java.nio.charset.StandardCharsets.UTF_8)).body(html);
    }

    @GetMapping("/dashboard.js")
    ResponseEntity<byte[]> script(WebRequest request) {
        return asset(page.script(), request);
    }

    @GetMapping("/dashboard.css")
    ResponseEntity<byte[]> style(WebRequest request) {
        return asset(page.style(), request);
    }

    @GetMapping(path = "/api/state", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<DashboardStates.State> state(@RequestParam(name = "q", required = false) @Nullable String filter,
            @RequestParam(required = false) @Nullable String sort,
            @RequestParam(required = false) @Nullable String order,
            @RequestParam(required = false) @Nullable String offset,
            @RequestParam(required = false) @Nullable String limit, HttpServletRequest request) {
        LockQuery query = LockQuery.parse(filter, sort, order, offset, limit);
        return ResponseEntity.ok().headers(secured()).cacheControl(CacheControl.noStore())
                .body(states.state(query, access.mode(), access.mayRelease(request)));
    }

    @PostMapping(path = "/api/locks/release", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ForcedReleases.Released> release(@RequestBody ReleaseRequest body, HttpServletRequest request) {
        access.checkRelease(request);
        if (body.resource() == null || body.token() == null) {
            throw new IllegalArgumentException("The body needs both 'resource' and 'token', such as "
                    + ReleaseRequest.EXAMPLE);
        }
        String who = DashboardAccess.who(request) + " from " + request.getRemoteAddr();
        return ResponseEntity.ok().headers(secured()).cacheControl(CacheControl.noStore())
                .body(releases.release(body.resource(), body.token(), who));
    }

    /** The page waits for the store's bound plus a margin, so that the server's answer comes first. */
    private long pageTimeoutMillis() {
        return settings.storeTimeout().toMillis() + 5_000;
    }

    private static ResponseEntity<byte[]> asset(DashboardPage.Asset asset, WebRequest request) {
        if (request.checkNotModified(asset.etag())) {
            return ResponseEntity.status(304).headers(secured()).build();
        }
        return ResponseEntity.ok().headers(secured()).cacheControl(CacheControl.noCache()).eTag(asset.etag())
                .contentType(MediaType.parseMediaType(asset.type() + ";charset=UTF-8")).body(asset.bytes());
    }

    static HttpHeaders secured() {
        HttpHeaders headers = new HttpHeaders();
        headers.set("Content-Security-Policy", DashboardPage.CONTENT_SECURITY_POLICY);
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set("X-Frame-Options", "DENY");
        headers.set("Referrer-Policy", "no-referrer");
        return headers;
    }

    /**
     * The body of a forced release: the lock and the token the operator saw.
     *
     * @param resource the resource
     * @param token the fencing token of the acquisition to end
     */
    record ReleaseRequest(@Nullable String resource, @Nullable Long token) {

        static final String EXAMPLE = "{\"resource\": \"job:42\", \"token\": 17}";
    }
}
