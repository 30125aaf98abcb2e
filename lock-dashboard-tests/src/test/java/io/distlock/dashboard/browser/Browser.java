package io.distlock.dashboard.browser;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Headless Chromium driven by Selenium, from Debian's {@code chromium} and {@code chromium-driver} packages (or
 * {@code DISTLOCK_CHROMIUM} and {@code DISTLOCK_CHROMEDRIVER}): nothing is downloaded, Selenium Manager is never
 * asked. Without them the calling test is skipped with a notice, unless {@code DISTLOCK_TEST_REQUIRE} names
 * {@code browser}: then it fails. Each browser has a profile of its own, collects the page's console messages, and
 * saves screenshots under {@code target/screenshots}.
 */
final class Browser implements AutoCloseable {

    private static final Path SCREENSHOTS = Path.of(System.getProperty("screenshots.dir", "target/screenshots"));

    private final ChromeDriver driver;

    private final Path profile;

    private final List<String> console = new ArrayList<>();

    private Browser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /**
     * Starts a browser, or skips (or fails) the calling test when there is none.
     *
     * @return the browser, 1280 by 900 pixels
     */
    static Browser start() {
        File chromium = new File(env("DISTLOCK_CHROMIUM", "/usr/bin/chromium"));
        File chromedriver = new File(env("DISTLOCK_CHROMEDRIVER", "/usr/bin/chromedriver"));
        if (!chromium.canExecute() || !chromedriver.canExecute()) {
            String problem = "no browser: " + (chromium.canExecute() ? "" : chromium + " ")
                    + (chromedriver.canExecute() ? "" : chromedriver + " ")
                    + "missing (apt-get install chromium chromium-driver)";
            String require = String.valueOf(System.getenv("DISTLOCK_TEST_REQUIRE")).toLowerCase(Locale.ROOT);
            if (require.contains("browser") || require.contains("all")) {
                Assertions.fail(problem + " but DISTLOCK_TEST_REQUIRE demands a browser");
            }
            Assumptions.abort(problem + ": the browser test is skipped");
        }
        // Selenium looks for a driver only when none is named: name it, so Selenium Manager never runs.
        System.setProperty("webdriver.chrome.driver", chromedriver.getAbsolutePath());
        Path profile;
        try {
            profile = Files.createTempDirectory("distlock-chromium");
        }
        catch (IOException ex) {
            throw new IllegalStateException("Cannot create a browser profile", ex);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium);
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile, "--window-size=1280,900");
        LoggingPreferences logging = new LoggingPreferences();
        logging.enable(LogType.BROWSER, java.util.logging.Level.ALL);
        options.setCapability("goog:loggingPrefs", logging);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver)
                .usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
        driver.manage().window().setSize(new Dimension(1280, 900));
        return new Browser(driver, profile);
    }

    ChromeDriver driver() {
        return driver;
    }

    /**
     * Saves a screenshot of what the page shows now.
     *
     * @param name the file's name, without extension
     * @return the file
     */
    Path screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Path file = SCREENSHOTS.resolve(name + ".png");
            Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
            return file;
        }
        catch (IOException ex) {
            throw new IllegalStateException("Cannot save screenshot " + name, ex);
        }
    }

    /**
     * The console messages of level SEVERE (JavaScript errors, failed loads) since the browser started, except those
     * a test expects.
     *
     * @param expected what a test caused on purpose
     * @return the messages
     */
    List<String> consoleErrors(Predicate<String> expected) {
        for (LogEntry entry : driver.manage().logs().get(LogType.BROWSER)) {
            console.add(entry.getLevel() + " " + entry.getMessage());
        }
        return console.stream().filter(line -> line.startsWith("SEVERE")).filter(expected.negate()).toList();
    }

    /** Asserts that the page logged no error to its console. */
    void assertNoConsoleErrors() {
        assertNoConsoleErrors(line -> false);
    }

    void assertNoConsoleErrors(Predicate<String> expected) {
        List<String> errors = consoleErrors(expected);
        if (!errors.isEmpty()) {
            Assertions.fail("JavaScript console errors: " + errors);
        }
    }

    Object script(String script, Object... arguments) {
        return driver.executeScript(script, arguments);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> scriptMap(String script, Object... arguments) {
        return (Map<String, Object>) driver.executeScript(script, arguments);
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value != null && !value.isBlank() ? value : fallback;
    }

    @Override
    public void close() {
        try {
            driver.quit();
        }
        finally {
            org.springframework.util.FileSystemUtils.deleteRecursively(profile.toFile());
        }
    }
}
