package io.distlock.dashboard.browser;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The admin mode behind Spring Security's login form, in Chromium: an admin releases a lock held by running work,
 * another holder then takes it with a larger token, and the old holder is told its lease is lost; a viewer without
 * the admin role gets no release control and its release is refused; a release without the CSRF token is refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdminBrowserTests {

    private H2Store store;

    private ConfigurableApplicationContext application;

    @BeforeAll
    void startApplication() throws Exception {
        store = new H2Store();
        application = DashboardTestApplication.start(store, "test.admin=true",
                "distributed-lock.dashboard.admin-enabled=true");
    }

    @AfterAll
    void stopApplication() {
        if (application != null) {
            application.close();
        }
        if (store != null) {
            store.close();
        }
    }

    private DashboardView login(Browser browser, String user, String password) {
        DashboardView dashboard = new DashboardView(browser, DashboardTestApplication.port(application));
        browser.driver().get(dashboard.url());
        browser.driver().findElement(By.id("username")).sendKeys(user);
        browser.driver().findElement(By.id("password")).sendKeys(password);
        browser.driver().findElement(By.cssSelector("button[type=submit]")).click();
        dashboard.awaitStatus("live");
        return dashboard;
    }

    /**
     * Spring Security's own login page links no icon, so the browser asks for {@code /favicon.ico}, which this
     * application does not have; the dashboard's page names its icon and never asks.
     */
    private static boolean loginPageFavicon(String line) {
        return line.contains("/favicon.ico") && line.contains("404");
    }

    private DashboardTestApplication.HeldWork work() {
        return application.getBean(DashboardTestApplication.HeldWork.class);
    }

    @Test
    void anAdminReleasesALockHeldByRunningWorkTheNextHolderGetsALargerTokenAndTheOldHolderIsToldItIsLost()
            throws Exception {
        String resource = "invoice-run:" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(work().hold(resource).await(10, TimeUnit.SECONDS)).isTrue();
        Lease lease = application.getBean(LockManager.class).activeLeases().stream()
            .filter(l -> l.resource().equals(resource)).findFirst().orElseThrow();
        try (Browser browser = Browser.start()) {
            DashboardView dashboard = login(browser, "admin", "admin-secret");
            Map<String, Object> row = dashboard.awaitRow(resource);
            assertThat(row.get("owner")).as("the admin sees the full owner").isEqualTo(lease.owner());
            assertThat(row.get("release")).isEqualTo(true);
            browser.screenshot("admin-before-release");

            browser.script("Array.from(document.querySelectorAll('#locks tbody tr')).find(r => "
                    + "r.getAttribute('data-resource') === arguments[0]).querySelector('button.release').click();",
                    resource);
            assertThat(browser.driver().findElement(By.id("confirm")).getText()).contains(resource,
                    "token " + lease.token());
            browser.driver().findElement(By.id("confirm-release")).click();
            await().atMost(Duration.ofSeconds(10)).until(() -> browser.driver().findElement(By.id("toast")).getText()
                    .startsWith("Released “" + resource + "”"));

            LockRecord next = application.getBean(LockRepository.class)
                .acquire(resource, "replica-2:" + UUID.randomUUID(), Duration.ofMinutes(1)).orElseThrow();
            assertThat(next.token()).isGreaterThan(lease.token());
            await().atMost(Duration.ofSeconds(10)).until(() -> work().losses().stream()
                    .anyMatch(loss -> loss.startsWith(resource + ": ")));
            assertThat(lease.isLost()).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> dashboard.eventKinds()
                    .containsAll(List.of("forced-release", "lease-lost")));
            // Between the release and the next holder's poll the row is gone for a moment.
            await().atMost(Duration.ofSeconds(10)).until(() -> dashboard.row(resource),
                    shown -> shown != null && Long.toString(next.token()).equals(shown.get("token")));
            browser.screenshot("admin-after-release");
            work().finish(resource);
            browser.assertNoConsoleErrors(AdminBrowserTests::loginPageFavicon);
        }
    }

    @Test
    void aViewerWithoutTheAdminRoleGetsNoReleaseControlAndItsReleaseIsRefused() throws Exception {
        String resource = "viewer-sees:" + UUID.randomUUID().toString().substring(0, 8);
        LockRecord held = application.getBean(LockRepository.class)
            .acquire(resource, "replica-3:" + UUID.randomUUID(), Duration.ofMinutes(5)).orElseThrow();
        try (Browser browser = Browser.start()) {
            DashboardView dashboard = login(browser, "viewer", "viewer-secret");
            Map<String, Object> row = dashboard.awaitRow(resource);
            assertThat(row.get("release")).isEqualTo(false);
            assertThat((String) row.get("owner")).endsWith("…");
            @SuppressWarnings("unchecked")
            Map<String, Object> answer = (Map<String, Object>) browser.driver().executeAsyncScript(
                    "const done = arguments[arguments.length - 1];"
                    + "const header = document.querySelector('meta[name=\"distlock-csrf-header\"]').content;"
                    + "const token = document.querySelector('meta[name=\"distlock-csrf-token\"]').content;"
                    + "fetch('/distlock/api/locks/release', {method: 'POST', headers: {'Content-Type': "
                    + "'application/json', [header]: token}, body: JSON.stringify({resource: arguments[0], "
                    + "token: Number(arguments[1])})}).then(r => r.json().then(b => done({status: r.status, "
                    + "detail: b.detail})));", resource, Long.toString(held.token()));
            assertThat(answer.get("status")).isEqualTo(403L);
            assertThat((String) answer.get("detail")).contains("user 'viewer' may not release locks",
                    "needs the role DISTLOCK_ADMIN");

            // The viewer's session, without the CSRF token: Spring Security refuses before the dashboard is asked.
            Cookie session = browser.driver().manage().getCookieNamed("JSESSIONID");
            HttpResponse<String> forged = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    dashboard.url() + "/api/locks/release")).header("Content-Type", "application/json")
                    .header("Cookie", "JSESSIONID=" + session.getValue())
                    .POST(HttpRequest.BodyPublishers.ofString("{\"resource\": \"" + resource + "\", \"token\": "
                            + held.token() + "}")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(forged.statusCode()).isEqualTo(403);
            assertThat(application.getBean(LockRepository.class).find(resource)).contains(held);
            browser.assertNoConsoleErrors(line -> loginPageFavicon(line)
                    || line.contains("/distlock/api/locks/release") && line.contains("403"));
        }
    }
}
