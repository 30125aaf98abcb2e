package io.distlock.spring.aop;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Closing the application while asynchronous guarded work runs: the work is stopped and its lock released before the
 * lock manager and the store close, and its result fails with a {@link CancellationException} — rather than the
 * watchdog stopping under work that runs on, and a release reaching a closed store.
 */
class AsynchronousShutdownTests {

    private final String url = "jdbc:h2:mem:shutdown-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

    @Test
    void closingTheApplicationStopsRunningWorkAndReleasesItsLockWhileTheStoreIsOpen() throws Exception {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(
                ReactiveDistributedLockContractTests.ReactiveApplication.class).web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF).logStartupInfo(false)
                .properties("spring.datasource.url=" + url, "distributed-lock.table-name=shutdown_locks").run();
        ReactiveJobs jobs = context.getBean(ReactiveJobs.class);
        String mono = "shutdown:mono:" + UUID.randomUUID();
        String future = "shutdown:future:" + UUID.randomUUID();
        CompletableFuture<String> monoResult = jobs.monoLong(mono).toFuture();
        CompletableFuture<String> futureResult = jobs.futureLong(future);
        await().atMost(Duration.ofSeconds(10)).until(() -> held(mono) && held(future));
        context.close();
        // A future failed with a CancellationException counts as cancelled: get() throws it as it is.
        assertThatThrownBy(() -> monoResult.get(10, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class)
                .hasMessageContaining("monoLong(String) was stopped: the application context closed");
        assertThatThrownBy(() -> futureResult.get(10, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class)
                .hasMessageContaining("futureLong(String) was stopped: the application context closed");
        // The TTL is 30 seconds: free now means released at the close.
        assertThat(held(mono)).as("the Mono's lock").isFalse();
        assertThat(held(future)).as("the future's lock").isFalse();
    }

    private boolean held(String resource) throws Exception {
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
                PreparedStatement statement = connection.prepareStatement(
                        "SELECT COUNT(*) FROM shutdown_locks WHERE resource = ? AND expires_at > CURRENT_TIMESTAMP")) {
            statement.setString(1, resource);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getInt(1) > 0;
            }
        }
    }
}
