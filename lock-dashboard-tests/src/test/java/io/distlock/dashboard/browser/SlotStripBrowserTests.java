package io.distlock.dashboard.browser;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A slot job's strip in Chromium: runs that succeeded, a run whose holder — another JVM — was killed mid-run, shown
 * crashed, and the slots its dead lease kept every replica from, shown missed, each in its colour; clicking a slot
 * shows its run.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SlotStripBrowserTests {

    private H2Store store;

    private ConfigurableApplicationContext application;

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

    @Test
    void theStripShowsSucceededCrashedAndMissedSlotsInTheirColours() throws Exception {
        try (Browser browser = Browser.start()) {
            DashboardView dashboard = new DashboardView(browser, DashboardTestApplication.port(application)).open();
            String job = DashboardTestApplication.TICK;
            await().atMost(Duration.ofSeconds(20)).until(() -> dashboard.strip(job).contains("succeeded"));

            Process crasher = new ProcessBuilder(new File(System.getProperty("java.home"), "bin/java").getPath(),
                    "-Xmx64m", "-cp", System.getProperty("java.class.path"), SlotCrasher.class.getName(), store.url(),
                    job, "2000", "6000").redirectErrorStream(true).start();
            try {
                BufferedReader output = new BufferedReader(new InputStreamReader(crasher.getInputStream(),
                        StandardCharsets.UTF_8));
                String claimed = CompletableFuture.supplyAsync(() -> {
                    try {
                        for (String line = output.readLine(); line != null; line = output.readLine()) {
                            if (line.startsWith("CLAIMED")) {
                                return line;
                            }
                        }
                        return "no claim: the crasher ended";
                    }
                    catch (java.io.IOException ex) {
                        return "no claim: " + ex;
                    }
                }).get(60, TimeUnit.SECONDS);
                assertThat(claimed).startsWith("CLAIMED CLAIMED");
            }
            finally {
                crasher.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }

            await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                List<String> strip = dashboard.strip(job);
                int crashed = strip.lastIndexOf("crashed");
                assertThat(crashed).as("a crashed slot in %s", strip).isPositive();
                assertThat(strip.subList(crashed, strip.size())).as("after the crash: %s", strip).contains("missed")
                    .endsWith("succeeded");
                assertThat(strip.subList(0, crashed)).contains("succeeded");
            });
            assertThat(dashboard.colour(job, "succeeded")).isEqualTo("rgb(46, 125, 50)");
            assertThat(dashboard.colour(job, "crashed")).isEqualTo("rgb(198, 40, 40)");
            assertThat(dashboard.colour(job, "missed")).contains("repeating-linear-gradient", "rgb(198, 40, 40)");
            assertThat(browser.driver().findElement(By.cssSelector(".job[data-job='tick']")).getAttribute("class"))
                .contains("attention-needed");
            assertThat(browser.driver().findElement(By.id("attention")).getText()).contains("“tick”", "crashed",
                    "missed");
            browser.screenshot("slot-strip");

            dashboard.clickCell(job, "crashed");
            String details = browser.driver().findElement(By.id("details")).getText();
            assertThat(details).contains("crashed", "replica-crash", "Fencing token", "not finished");
            browser.screenshot("slot-details");
            browser.driver().findElement(By.id("details-close")).click();
            await().atMost(Duration.ofSeconds(20))
                .until(() -> dashboard.eventKinds().containsAll(List.of("slot-crashed", "slots-missed")));
            browser.assertNoConsoleErrors();
        }
    }
}
