package io.distlock.spring.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.web.util.HtmlUtils;

/**
 * The dashboard's page and its two assets, read once from the class path beside this class. The page is a template
 * whose few values (the base path, the mode, the CSRF token) are HTML-escaped into {@code <meta>} tags; no value
 * reaches a script, and the page runs no inline script, so a strict Content-Security-Policy holds.
 */
final class DashboardPage {

    /** No script or style but the dashboard's own; data from its own origin only; never framed. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private final String template = text("index.html");

    private final Asset script = asset("dashboard.js", "text/javascript");

    private final Asset style = asset("dashboard.css", "text/css");

    /**
     * The page.
     *
     * @param base the dashboard's URL path, context path included
     * @param mode what the dashboard allows, in words
     * @param admin whether this viewer may release locks
     * @param refreshMillis time between two refreshes
     * @param timeoutMillis how long the page waits for an answer before it shows the application unreachable
     * @param csrf the CSRF token to send with releases, or {@code null}
     * @return the HTML
     */
    String render(String base, String mode, boolean admin, long refreshMillis, long timeoutMillis,
            CsrfTokens.@Nullable CsrfToken csrf) {
        Map<String, String> values = Map.of("base", base, "mode", mode, "admin", Boolean.toString(admin),
                "refresh", Long.toString(refreshMillis), "timeout", Long.toString(timeoutMillis),
                "csrfHeader", csrf != null ? csrf.headerName() : "", "csrfToken", csrf != null ? csrf.token() : "",
                "version", script.etag());
        String page = template;
        for (Map.Entry<String, String> value : values.entrySet()) {
            page = page.replace("{{" + value.getKey() + "}}", HtmlUtils.htmlEscape(value.getValue(), "UTF-8"));
        }
        return page;
    }

    Asset script() {
        return script;
    }

    Asset style() {
        return style;
    }

    private static Asset asset(String name, String type) {
        byte[] bytes = text(name).getBytes(StandardCharsets.UTF_8);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
            return new Asset(bytes, type, HexFormat.of().formatHex(digest, 0, 8));
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", ex);
        }
    }

    private static String text(String name) {
        try (InputStream in = DashboardPage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("The lock dashboard's " + name + " is missing from the class path "
                        + "(io/distlock/spring/dashboard/" + name + ")");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read the lock dashboard's " + name, ex);
        }
    }

    /**
     * A static file of the page.
     *
     * @param bytes its content
     * @param type its media type
     * @param etag a hash of its content
     */
    record Asset(byte[] bytes, String type, String etag) {
    }
}
