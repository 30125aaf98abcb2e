package io.distlock.spring.aop;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A store that stops answering while many guarded {@code Mono}s run: each ends with what its work gave, its lock left
 * to expire by its TTL, and the failed releases are told once, not once per result. The outage is real: the lock
 * table of an embedded H2 database is renamed away under the running work.
 */
@ExtendWith(OutputCaptureExtension.class)
class ReactiveStoreOutageTests {

    @Test
    void releasesTheStoreDoesNotAnswerAreLoggedOnceForAllTheWorkThatEnds(CapturedOutput output) throws Exception {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(
                ReactiveDistributedLockContractTests.ReactiveApplication.class).web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF).logStartupInfo(false)
                .properties("spring.datasource.url=jdbc:h2:mem:outage-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                        "distributed-lock.table-name=outage_locks")
                .run()) {
            ReactiveJobs jobs = context.getBean(ReactiveJobs.class);
            ReactiveJobs.Works works = context.getBean(ReactiveJobs.Works.class);
            JdbcTemplate jdbc = new JdbcTemplate(context.getBean(javax.sql.DataSource.class));
            String prefix = "outage:" + UUID.randomUUID() + ":";
            List<CompletableFuture<String>> results = IntStream.range(0, 20)
                    .mapToObj(i -> jobs.monoLong(prefix + i).toFuture()).toList();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.queryForObject(
                    "SELECT COUNT(*) FROM outage_locks WHERE resource LIKE ?", Integer.class, prefix + "%") == 20);
            jdbc.execute("ALTER TABLE outage_locks RENAME TO outage_locks_away");
            try {
                IntStream.range(0, 20).forEach(i -> works.until(prefix + i).tryEmitValue("done"));
                for (CompletableFuture<String> result : results) {
                    assertThat(result.get(10, TimeUnit.SECONDS)).startsWith("done under token ");
                }
                String out = output.getOut();
                int told = out.split("Could not release the lock of asynchronous work", -1).length - 1;
                assertThat(told).as("failed releases told").isEqualTo(1);
                assertThat(out).contains("expires by itself at the end of its TTL");
            }
            finally {
                jdbc.execute("ALTER TABLE outage_locks_away RENAME TO outage_locks");
            }
        }
    }
}
