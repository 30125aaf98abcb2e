package io.distlock.spring.dashboard;

import java.lang.reflect.Method;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Reads the CSRF token Spring Security's filter puts on each request it protects, without a compile-time dependency
 * on Spring Security: the page sends it back in a header with each forced release, and a release request without it
 * shows that CSRF protection is off for the dashboard's path.
 */
final class CsrfTokens {

    /** The request attribute Spring Security's {@code CsrfFilter} sets: the name of its {@code CsrfToken} type. */
    static final String ATTRIBUTE = "org.springframework.security.web.csrf.CsrfToken";

    private CsrfTokens() {
    }

    /**
     * The request's CSRF token.
     *
     * @param request the request
     * @return the header to send it in and its value, or {@code null} when no CSRF filter handled the request
     */
    static @Nullable CsrfToken of(HttpServletRequest request) {
        Object token = request.getAttribute(ATTRIBUTE);
        if (token == null || !ClassUtils.isPresent(ATTRIBUTE, CsrfTokens.class.getClassLoader())) {
            return null;
        }
        try {
            Class<?> type = ClassUtils.forName(ATTRIBUTE, CsrfTokens.class.getClassLoader());
            if (!type.isInstance(token)) {
                return null;
            }
            String header = (String) invoke(type, "getHeaderName", token);
            String value = (String) invoke(type, "getToken", token);
            return header != null && value != null ? new CsrfToken(header, value) : null;
        }
        catch (ClassNotFoundException | LinkageError ex) {
            return null;
        }
    }

    private static @Nullable Object invoke(Class<?> type, String name, Object target) {
        Method method = ReflectionUtils.findMethod(type, name);
        return method != null ? ReflectionUtils.invokeMethod(method, target) : null;
    }

    /**
     * A CSRF token.
     *
     * @param headerName the header it is expected in
     * @param token its value
     */
    record CsrfToken(String headerName, String token) {
    }
}
