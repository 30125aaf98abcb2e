package io.distlock.spring.metrics;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.OncePerSlot;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application with metrics, observations and a Prometheus registry all on, over real HTTP: every lock meter keeps
 * one name for one type and one set of tag keys, so the Prometheus registry takes each of them, the counts are those
 * of the leases held, and the meters are exactly those docs/operating.md and the README list.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = PrometheusMetersTests.TestApplication.class,
        properties = { "spring.datasource.url=jdbc:h2:mem:prometheus-meters;DB_CLOSE_DELAY=-1",
                "management.endpoints.web.exposure.include=metrics,prometheus" })
class PrometheusMetersTests {

    private static final int LEASES = 9;

    private final HttpClient http = HttpClient.newHttpClient();

    @Autowired
    private Jobs jobs;

    @Autowired
    private MeterRegistry registry;

    @Autowired
    private PrometheusMeterRegistry prometheus;

    @Autowired
    private JsonMapper json;

    @LocalServerPort
    private int port;

    @Test
    void everyLockMeterReachesPrometheusOnceWithTheCountsOfTheLeasesAndTheReadmeListsThemAll() throws Exception {
        for (int i = 0; i < LEASES; i++) {
            jobs.export();
        }
        JsonNode held = json.readTree(get("/actuator/metrics/distributed.lock.held?tag=lock:export"));
        assertThat(held.get("measurements").get(0).get("value").asDouble()).as("COUNT of leases held")
                .isEqualTo(LEASES);
        String scrape = get("/actuator/prometheus");
        assertThat(scrape.lines()).as("the scrape")
                .contains("distributed_lock_held_seconds_count{lock=\"export\"} " + LEASES)
                .contains("distributed_lock_call_seconds_count{error=\"none\",lock=\"export\",outcome=\"ran\"} "
                        + LEASES)
                .contains("distributed_lock_active 0.0");
        Set<String> names = lockMeters(registry);
        assertThat(lockMeters(prometheus)).as("what the Prometheus registry took").isEqualTo(names);
        assertThat(names).as("the meters docs/operating.md lists").isEqualTo(operatingPageMeters());
        assertThat(names).as("the meters the README lists").isEqualTo(readmeMeters());
    }

    private static Set<String> lockMeters(MeterRegistry registry) {
        return registry.getMeters().stream().map(Meter::getId).map(Meter.Id::getName)
                .filter(name -> name.startsWith("distributed.lock")).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The meter names the README's paragraph on meters lists. */
    private static Set<String> readmeMeters() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf("these are all the meters the library registers");
        assertThat(start).as("the README's paragraph on meters").isPositive();
        String paragraph = readme.substring(start, readme.indexOf("\n\n", start));
        Set<String> names = new TreeSet<>();
        Matcher name = Pattern.compile("`(distributed\\.lock[a-z.]*)`").matcher(paragraph);
        while (name.find()) {
            names.add(name.group(1));
        }
        return names;
    }

    /** The meter names of the table of meters in docs/operating.md. */
    private static Set<String> operatingPageMeters() throws IOException {
        String page = Files.readString(Path.of("..", "docs", "operating.md"));
        String section = page.substring(page.indexOf("## Metrics (Micrometer)"),
                page.indexOf("## Observations (Micrometer Observation, tracing)"));
        Set<String> names = new TreeSet<>();
        Matcher row = Pattern.compile("(?m)^\\| `(distributed\\.lock[a-z.]*)` \\|").matcher(section);
        while (row.find()) {
            names.add(row.group(1));
        }
        return names;
    }

    private String get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return response.body();
    }

    /** A guarded method and a scheduled job claimed per slot, whose meters exist from start-up. */
    static class Jobs {

        @DistributedLock(resource = "export")
        public void export() {
        }

        @Scheduled(cron = "0 0 0 1 1 *")
        @OncePerSlot(job = "yearly")
        public void yearly() {
        }
    }

    /** An application with Actuator, metrics, observations and Prometheus. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    static class TestApplication {

        @Bean
        Jobs jobs() {
            return new Jobs();
        }
    }
}
