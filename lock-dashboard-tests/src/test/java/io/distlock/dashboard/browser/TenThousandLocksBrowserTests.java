package io.distlock.dashboard.browser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.distlock.core.LockRepository;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * 10,000 held locks, in Chromium: the page shows the first page of them, filters and pages through them, keeps
 * refreshing, and logs no error. What the load cost — time to the first data, bytes transferred — is measured and
 * written to {@code target/dashboard-10k-locks.txt}; nothing is asserted about speed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TenThousandLocksBrowserTests {

    private static final int LOCKS = 10_000;

    private H2Store store;

    private ConfigurableApplicationContext application;

    @BeforeAll
    void startApplication() throws Exception {
        store = new H2Store();
        application = DashboardTestApplication.start(store, "distributed-lock.dashboard.refresh-interval=2s");
        LockRepository repository = application.getBean(LockRepository.class);
        for (int i = 0; i < LOCKS; i++) {
            repository.acquire(String.format("lock-%05d", i), "replica-" + (i % 7) + ":" + UUID.randomUUID(),
                    Duration.ofMinutes(30)).orElseThrow();
        }
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

    @Test
    void tenThousandHeldLocksArePagedFilteredAndTheLoadIsMeasured() throws Exception {
        try (Browser browser = Browser.start()) {
            DashboardView dashboard = new DashboardView(browser, DashboardTestApplication.port(application));
            // The first load with an empty cache, then a second one, which revalidates the script and the style.
            Map<String, Object> cold = measureLoad(browser, dashboard);
            browser.driver().get("about:blank");
            Map<String, Object> load = measureLoad(browser, dashboard);
            assertThat(load.get("rows")).isEqualTo(50L);
            assertThat((String) load.get("info")).isEqualTo("1–50 of 10,000");
            browser.screenshot("ten-thousand-locks");

            long start = System.nanoTime();
            browser.driver().findElement(By.id("filter")).sendKeys("lock-09999");
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10))
                .until(() -> ((Number) browser.script("return document.querySelectorAll('#locks tbody tr').length;"))
                    .intValue() == 1 && dashboard.row("lock-09999") != null);
            long filterMillis = (System.nanoTime() - start) / 1_000_000;
            browser.driver().findElement(By.id("filter")).clear();
            browser.script("const f = document.getElementById('filter'); f.value = '';"
                    + "f.dispatchEvent(new Event('input'));");
            await().atMost(Duration.ofSeconds(20)).until(() -> dashboard.row("lock-00000") != null);
            browser.driver().findElement(By.id("next")).click();
            await().atMost(Duration.ofSeconds(20)).until(() -> browser.driver().findElement(By.id("page-info"))
                    .getText().equals("51–100 of 10,000"));
            long before = dashboard.refreshes();
            await().atMost(Duration.ofSeconds(20)).until(() -> dashboard.refreshes() >= before + 2);

            String report = String.join(System.lineSeparator(), List.of(
                    "Lock dashboard with " + LOCKS + " held locks (H2 over TCP, headless Chromium, one page of 50):",
                    "  first load, empty cache: " + describe(cold),
                    "  second load: " + describe(load),
                    "  filter to one of 10,000: " + filterMillis + " ms from typing to the row shown "
                            + "(250 ms of it the typing pause)"));
            System.out.println(report);
            Path target = Path.of(System.getProperty("screenshots.dir", "target/screenshots")).getParent();
            Files.writeString(target.resolve("dashboard-10k-locks.txt"), report + System.lineSeparator());
            browser.assertNoConsoleErrors();
        }
    }

    private static Map<String, Object> measureLoad(Browser browser, DashboardView dashboard) {
        dashboard.open();
        dashboard.awaitRow("lock-00000");
        await().atMost(Duration.ofSeconds(20)).until(() -> browser.driver().findElement(By.tagName("body"))
                .getAttribute("data-first-render-ms") != null);
        return browser.scriptMap("const nav = performance.getEntriesByType('navigation')[0];"
                + "const res = performance.getEntriesByType('resource');"
                + "const state = res.find(r => r.name.includes('/api/state'));"
                + "return {domContentLoaded: Math.round(nav.domContentLoadedEventEnd),"
                + " load: Math.round(nav.loadEventEnd),"
                + " firstRender: Number(document.body.getAttribute('data-first-render-ms')),"
                + " htmlBytes: nav.transferSize,"
                + " assetBytes: res.filter(r => !r.name.includes('/api/')).reduce((s, r) => s + r.transferSize, 0),"
                + " stateBytes: state ? state.transferSize : -1, stateDecoded: state ? state.decodedBodySize : -1,"
                + " stateMillis: state ? Math.round(state.duration) : -1,"
                + " rows: document.querySelectorAll('#locks tbody tr').length,"
                + " info: document.getElementById('page-info').textContent};");
    }

    private static String describe(Map<String, Object> load) {
        return "DOMContentLoaded " + load.get("domContentLoaded") + " ms, load " + load.get("load")
                + " ms, first data rendered " + load.get("firstRender") + " ms after navigation start; transferred: "
                + "page " + load.get("htmlBytes") + " B, script and style " + load.get("assetBytes") + " B, state "
                + load.get("stateBytes") + " B (" + load.get("stateDecoded") + " B decoded, " + load.get("stateMillis")
                + " ms)";
    }
}
