package io.distlock.spring.dashboard;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Who may release: nobody read-only; with Spring Security, a user with the admin role whose request passed Spring
 * Security's CSRF check, never one from another site; unprotected, anyone, still only from the page itself.
 */
class DashboardAccessTests {

    private static DashboardSettings settings(boolean admin, boolean unprotected) {
        return new DashboardSettings("/distlock", admin, "DISTLOCK_ADMIN", unprotected, Duration.ofSeconds(2),
                Duration.ofSeconds(3), 100, Duration.ofSeconds(5), Duration.ofMinutes(10));
    }

    private static MockHttpServletRequest request(String role, boolean csrfChecked) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/distlock/api/locks/release");
        request.setUserPrincipal(() -> "alice");
        request.addUserRole(role);
        if (csrfChecked) {
            request.setAttribute(CsrfTokens.ATTRIBUTE, new Object());
        }
        return request;
    }

    @Test
    void readOnlyRefusesEveryoneAndShowsNoFullOwners() {
        DashboardAccess access = new DashboardAccess(settings(false, false), true);
        MockHttpServletRequest admin = request("DISTLOCK_ADMIN", true);
        assertThat(access.mayRelease(admin)).isFalse();
        assertThatThrownBy(() -> access.checkRelease(admin)).isInstanceOf(DashboardRefusal.class)
            .hasMessageContaining("read-only");
    }

    @Test
    void withSpringSecurityTheRoleAndTheCsrfCheckAreRequired() {
        DashboardAccess access = new DashboardAccess(settings(true, false), true);
        assertThat(access.mode()).isEqualTo(DashboardAccess.Mode.ADMIN);
        access.checkRelease(request("DISTLOCK_ADMIN", true));
        assertThat(access.mayRelease(request("DISTLOCK_ADMIN", true))).isTrue();
        MockHttpServletRequest viewer = request("VIEWER", true);
        assertThat(access.mayRelease(viewer)).isFalse();
        assertThatThrownBy(() -> access.checkRelease(viewer)).isInstanceOf(DashboardRefusal.class)
            .hasMessage("user 'alice' may not release locks: the dashboard's admin mode needs the role "
                    + "DISTLOCK_ADMIN");
        assertThatThrownBy(() -> access.checkRelease(request("DISTLOCK_ADMIN", false)))
            .isInstanceOf(DashboardRefusal.class)
            .hasMessageContaining("CSRF protection is off for /distlock");
        MockHttpServletRequest crossSite = request("DISTLOCK_ADMIN", true);
        crossSite.addHeader("Sec-Fetch-Site", "same-site");
        assertThatThrownBy(() -> access.checkRelease(crossSite)).isInstanceOf(DashboardRefusal.class)
            .hasMessageContaining("came from a same-site page");
    }

    @Test
    void unprotectedOnlyWhenAcceptedAndThenStillOnlyFromThePage() {
        assertThatThrownBy(() -> new DashboardAccess(settings(true, false), false))
            .isInstanceOf(DashboardAdminUnprotectedException.class);
        DashboardAccess access = new DashboardAccess(settings(true, true), false);
        MockHttpServletRequest anyone = new MockHttpServletRequest("POST", "/distlock/api/locks/release");
        assertThat(access.mayRelease(anyone)).isTrue();
        access.checkRelease(anyone);
        anyone.addHeader("Sec-Fetch-Site", "cross-site");
        assertThatThrownBy(() -> access.checkRelease(anyone)).isInstanceOf(DashboardRefusal.class);
        assertThat(DashboardAccess.who(new MockHttpServletRequest())).isEqualTo("an anonymous user");
    }
}
