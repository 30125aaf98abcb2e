package io.distlock.dashboard.browser;

import java.time.Duration;
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
 * The store going away, in Chromium: the page says the lock store is unreachable and why, keeps showing — dimmed —
 * what the store last answered with its age instead of an empty table, and goes live again when the store is back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StoreDownBrowserTests {

    private H2Store store;

    private ConfigurableApplicationContext application;

    @BeforeAll
    void startApplication() throws Exception {
        store = new H2Store();
        application = DashboardTestApplication.start(store, "distributed-lock.dashboard.store-timeout=1s");
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
    void theStoreGoingAwayShowsAVisibleUnreachableStateWithTheLastDataAndLiveAgainWhenItIsBack() throws Exception {
        String resource = "nightly-export:" + UUID.randomUUID().toString().substring(0, 8);
        application.getBean(LockRepository.class).acquire(resource, "replica-4:" + UUID.randomUUID(),
                Duration.ofMinutes(10)).orElseThrow();
        try (Browser browser = Browser.start()) {
            DashboardView dashboard = new DashboardView(browser, DashboardTestApplication.port(application)).open();
            dashboard.awaitRow(resource);

            store.stop();
            dashboard.awaitStatus("store-down");
            assertThat(browser.driver().findElement(By.id("status")).getText()).isEqualTo("Store unreachable");
            assertThat(dashboard.banner()).startsWith("Lock store unreachable: ")
                .containsPattern("Showing what it answered at .* \\(\\d+ s ago\\)\\.");
            assertThat(dashboard.row(resource)).as("the last data stays on the page").isNotNull();
            assertThat(browser.script("return document.body.classList.contains('stale');")).isEqualTo(true);
            assertThat(browser.script("return getComputedStyle(document.querySelector('#locks')).opacity;"))
                .isEqualTo("0.55");
            browser.screenshot("store-unreachable");

            store.restart();
            dashboard.awaitStatus("live");
            await().atMost(Duration.ofSeconds(20)).until(() -> dashboard.banner().isEmpty());
            assertThat(dashboard.row(resource)).isNotNull();
            browser.assertNoConsoleErrors();
        }
    }
}
