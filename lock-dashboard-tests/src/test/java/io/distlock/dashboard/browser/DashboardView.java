package io.distlock.dashboard.browser;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import static org.awaitility.Awaitility.await;

/**
 * What a person sees of the dashboard in the browser, read from the page itself: the rows of the locks table, the
 * status in the corner, the banner, the slot strips and the events.
 */
final class DashboardView {

    private static final String ROW = "return Array.from(document.querySelectorAll('#locks tbody tr'))"
            + ".filter(r => r.getAttribute('data-resource') === arguments[0])"
            + ".map(r => ({resource: r.querySelector('td.resource').firstChild.textContent,"
            + " instance: r.querySelector('td.instance').textContent, owner: r.querySelector('td.owner').textContent,"
            + " token: r.querySelector('td.token').textContent, held: r.querySelector('td.held').textContent,"
            + " expires: r.querySelector('td.expires').textContent,"
            + " renewals: r.querySelector('td.renewals').textContent, classes: r.className,"
            + " tags: Array.from(r.querySelectorAll('.tag')).map(t => t.textContent).join(','),"
            + " release: r.querySelector('button.release') !== null}))[0] || null;";

    private final Browser browser;

    private final String url;

    DashboardView(Browser browser, int port) {
        this.browser = browser;
        this.url = "http://127.0.0.1:" + port + "/distlock";
    }

    String url() {
        return url;
    }

    DashboardView open() {
        browser.driver().get(url);
        awaitStatus("live");
        return this;
    }

    /** The row of a lock as shown, or {@code null} when the table does not show it. */
    @SuppressWarnings("unchecked")
    Map<String, Object> row(String resource) {
        return (Map<String, Object>) browser.script(ROW, resource);
    }

    Map<String, Object> awaitRow(String resource) {
        return await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
            .until(() -> row(resource), row -> row != null);
    }

    void awaitNoRow(String resource) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> row(resource) == null);
    }

    String status() {
        return browser.driver().findElement(By.id("status")).getAttribute("data-state");
    }

    void awaitStatus(String state) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> status().equals(state));
    }

    String banner() {
        WebElement banner = browser.driver().findElement(By.id("banner"));
        return banner.isDisplayed() ? banner.getText() : "";
    }

    long refreshes() {
        String count = browser.driver().findElement(By.tagName("body")).getAttribute("data-refreshes");
        return count == null ? 0 : Long.parseLong(count);
    }

    /** The kinds of a job's strip, oldest first, with a count for a cell that stands for several slots. */
    @SuppressWarnings("unchecked")
    List<String> strip(String job) {
        return (List<String>) browser.script("const job = Array.from(document.querySelectorAll('#jobs .job'))"
                + ".find(j => j.getAttribute('data-job') === arguments[0]);"
                + "return job ? Array.from(job.querySelectorAll('.strip .cell')).map(c => c.getAttribute('data-kind')"
                + " + (c.textContent ? c.textContent : '')) : [];", job);
    }

    /** The background colour of the first cell of a kind in a job's strip, as computed. */
    String colour(String job, String kind) {
        return (String) browser.script("const job = Array.from(document.querySelectorAll('#jobs .job'))"
                + ".find(j => j.getAttribute('data-job') === arguments[0]);"
                + "const cell = job.querySelector('.strip .cell[data-kind=\"' + arguments[1] + '\"]');"
                + "const style = getComputedStyle(cell);"
                + "return style.backgroundImage !== 'none' ? style.backgroundImage : style.backgroundColor;", job, kind);
    }

    /**
     * Clicks the newest cell of a kind in a job's strip, found and clicked in one step: the strip is drawn anew with
     * every refresh.
     */
    void clickCell(String job, String kind) {
        browser.script("const job = Array.from(document.querySelectorAll('#jobs .job'))"
                + ".find(j => j.getAttribute('data-job') === arguments[0]);"
                + "const cells = job.querySelectorAll('.strip .cell[data-kind=\"' + arguments[1] + '\"]');"
                + "cells[cells.length - 1].click();", job, kind);
    }

    @SuppressWarnings("unchecked")
    List<String> eventKinds() {
        return (List<String>) browser.script(
                "return Array.from(document.querySelectorAll('#events li')).map(li => li.getAttribute('data-kind'));");
    }
}
