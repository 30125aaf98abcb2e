package io.distlock.dashboard.browser;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.LockRepository;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The read-only dashboard of a running application, as a person sees it in Chromium: a lock taken by running work
 * appears with a countdown and disappears after release; the page refreshes by itself without reloading; names with
 * markup show as text; a narrow screen shows cards; there is no release control and the API refuses a release; and
 * the page logs no JavaScript error.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LiveLocksBrowserTests {

    private H2Store store;

    private ConfigurableApplicationContext application;

    private Browser browser;

    private DashboardView dashboard;

    @BeforeAll
    void startApplication() throws Exception {
        store = new H2Store();
        application = DashboardTestApplication.start(store);
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

    @BeforeEach
    void openBrowser() {
        browser = Browser.start();
        dashboard = new DashboardView(browser, DashboardTestApplication.port(application));
    }

    @AfterEach
    void closeBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    private DashboardTestApplication.HeldWork work() {
        return application.getBean(DashboardTestApplication.HeldWork.class);
    }

    @Test
    void aLockTakenByRunningWorkAppearsWithItsCountdownAndDisappearsAfterRelease() throws Exception {
        String resource = "report:" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(work().hold(resource).await(10, TimeUnit.SECONDS)).isTrue();
        Lease lease = application.getBean(LockManager.class).activeLeases().stream()
            .filter(l -> l.resource().equals(resource)).findFirst().orElseThrow();
        dashboard.open();
        Map<String, Object> row = dashboard.awaitRow(resource);
        assertThat(row.get("resource")).isEqualTo(resource);
        assertThat(row.get("instance")).isEqualTo("replica-1");
        assertThat((String) row.get("owner")).as("a fingerprint, never the full token")
            .isEqualTo(lease.owner().substring(0, "replica-1:".length() + 4) + "…");
        assertThat(row.get("token")).isEqualTo(Long.toString(lease.token()));
        assertThat((String) row.get("expires")).matches("\\d+ s");
        assertThat((String) row.get("tags")).contains("this instance");
        String first = (String) row.get("held");
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
            .until(() -> dashboard.row(resource), shown -> shown != null && !first.equals(shown.get("held")));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
            .until(() -> dashboard.row(resource), shown -> shown != null && !"0".equals(shown.get("renewals")));
        browser.screenshot("locks-held");

        work().finish(resource);
        dashboard.awaitNoRow(resource);
        browser.assertNoConsoleErrors();
    }

    @Test
    void thePageRefreshesByItselfWithoutReloading() {
        dashboard.open();
        browser.script("window.distlockTestMarker = 42;");
        long before = dashboard.refreshes();
        String resource = "later:" + UUID.randomUUID().toString().substring(0, 8);
        application.getBean(LockRepository.class).acquire(resource, "batch-7:" + UUID.randomUUID(),
                Duration.ofMinutes(5)).orElseThrow();
        dashboard.awaitRow(resource);
        await().atMost(Duration.ofSeconds(20)).until(() -> dashboard.refreshes() >= before + 3);
        assertThat(browser.script("return window.distlockTestMarker;")).as("the same page, never reloaded")
            .isEqualTo(42L);
        assertThat(browser.script("return performance.getEntriesByType('navigation').length;")).isEqualTo(1L);
        assertThat(dashboard.status()).isEqualTo("live");
        browser.assertNoConsoleErrors();
    }

    @Test
    void resourceNamesWithMarkupAreShownAsText() {
        List<String> names = List.of("<img src=x onerror=\"window.distlockXss=1\">",
                "<script>window.distlockXss=2</script>", "\"><svg onload=window.distlockXss=3>",
                "javascript:window.distlockXss=4", "{{constructor.constructor('window.distlockXss=5')()}}");
        LockRepository repository = application.getBean(LockRepository.class);
        for (String name : names) {
            repository.acquire(name, "intruder:" + UUID.randomUUID(), Duration.ofMinutes(5)).orElseThrow();
        }
        dashboard.open();
        browser.driver().findElement(By.id("filter")).sendKeys("distlockXss");
        for (String name : names) {
            assertThat(dashboard.awaitRow(name).get("resource")).isEqualTo(name);
        }
        assertThat(browser.script("return window.distlockXss === undefined;")).isEqualTo(true);
        assertThat(browser.driver().findElements(By.cssSelector("#locks img, #locks script, #locks svg"))).isEmpty();
        browser.screenshot("markup-as-text");
        browser.assertNoConsoleErrors();
    }

    @Test
    void theReadOnlyPageHasNoReleaseControlAndItsApiRefusesARelease() throws Exception {
        String resource = "held:" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(work().hold(resource).await(10, TimeUnit.SECONDS)).isTrue();
        dashboard.open();
        Map<String, Object> row = dashboard.awaitRow(resource);
        assertThat(row.get("release")).isEqualTo(false);
        assertThat(browser.driver().findElements(By.cssSelector("button.release"))).isEmpty();
        assertThat(browser.driver().findElement(By.cssSelector("#locks th.admin-only")).isDisplayed()).isFalse();
        assertThat(browser.driver().findElement(By.id("mode")).getText()).isEqualTo("read-only");
        // The page's own CSRF token, so that Spring Security lets the call through to the dashboard, which refuses it.
        @SuppressWarnings("unchecked")
        Map<String, Object> answer = (Map<String, Object>) browser.driver().executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                + "const header = document.querySelector('meta[name=\"distlock-csrf-header\"]').content;"
                + "const token = document.querySelector('meta[name=\"distlock-csrf-token\"]').content;"
                + "const headers = {'Content-Type': 'application/json'}; if (header) { headers[header] = token; }"
                + "fetch('/distlock/api/locks/release', {method: 'POST', headers: headers,"
                + " body: JSON.stringify({resource: arguments[0], token: Number(arguments[1])})})"
                + ".then(r => r.json().then(b => done({status: r.status, detail: b.detail})))"
                + ".catch(e => done({status: -1, detail: String(e)}));", resource, row.get("token"));
        assertThat(answer.get("status")).isEqualTo(403L);
        assertThat((String) answer.get("detail")).contains("read-only");
        assertThat(dashboard.row(resource)).as("still held").isNotNull();
        assertThat(work().losses()).noneMatch(loss -> loss.startsWith(resource));
        work().finish(resource);
        browser.assertNoConsoleErrors(line -> line.contains("/distlock/api/locks/release") && line.contains("403"));
    }

    @Test
    void onANarrowScreenEachLockIsACardAndNothingOverflowsSideways() {
        String resource = "narrow:" + UUID.randomUUID() + ":a-rather-long-resource-name-without-any-spaces-in-it";
        application.getBean(LockRepository.class).acquire(resource, "replica-9:" + UUID.randomUUID(),
                Duration.ofMinutes(5)).orElseThrow();
        browser.driver().manage().window().setSize(new Dimension(390, 844));
        dashboard.open();
        dashboard.awaitRow(resource);
        assertThat(browser.script("return document.documentElement.scrollWidth <= window.innerWidth;"))
            .as("no sideways scrolling").isEqualTo(true);
        assertThat(browser.script("return getComputedStyle(document.querySelector('#locks thead')).display;"))
            .isEqualTo("none");
        browser.screenshot("narrow-screen");
        browser.assertNoConsoleErrors();
    }
}
