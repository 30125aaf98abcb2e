package io.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockTableName;
import io.distlock.jdbc.OutsideSession;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The watchdog on a real database while another session holds one leased row locked: the batch that contains the
 * stuck row runs out of its statement timeout, the watchdog renews each lease on its own, the healthy leases stay
 * held, and releasing one of them waits at most for the batch statement in flight, never for the stuck row's own
 * renewal.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class StuckRowWatchdogContractTests {

    private static final Duration BOUND = Duration.ofSeconds(1);

    private static final Duration TTL = Duration.ofSeconds(5);

    private LockTableName table;

    private JdbcLockRepository repository;

    protected abstract TestDatabase database();

    @BeforeAll
    void createTable() {
        table = database().createLockTable();
        repository = JdbcLockRepository.builder(database().dataSource()).tableName(table.value())
                .dialect(database().dialect()).statementTimeout(BOUND).build();
    }

    @AfterAll
    void dropTable() {
        if (table != null) {
            database().dropLockTable(table);
        }
    }

    @Test
    void healthyLeasesOfABatchStayHeldAndReleaseWithinTheRoundWhileAnotherSessionHoldsOneRowLocked() throws Exception {
        java.util.Set<String> failedRenewals = java.util.concurrent.ConcurrentHashMap.newKeySet();
        LockObserver failures = new LockObserver() {
            @Override
            public void renewalFailed(Lease lease, RuntimeException error) {
                failedRenewals.add(lease.resource());
            }
        };
        try (LockManager manager = LockManager.builder(repository).observer(failures).build()) {
            List<Lease> healthy = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                healthy.add(manager.acquire(LockRequest.of("stuck-row:" + UUID.randomUUID(), TTL)).orElseThrow());
            }
            Lease stuck = manager.acquire(LockRequest.of("stuck-row:" + UUID.randomUUID(), TTL)).orElseThrow();
            try (OutsideSession outside = OutsideSession.lockingRow(database(), table, stuck.resource())) {
                await().atMost(TTL).until(() -> failedRenewals.contains(stuck.resource()));
                assertThat(stuck.isLost()).as("still within its TTL").isFalse();
                // The watchdog keeps trying the stuck lease, with the healthy ones in the same rounds.
                long start = System.nanoTime();
                assertThat(healthy.remove(0).release()).isEqualTo(LockResult.APPLIED);
                assertThat(Duration.ofNanos(System.nanoTime() - start))
                        .as("waits at most for the round in flight: the batch's timeout and the stuck lease's own")
                        .isLessThan(BOUND.multipliedBy(2).plusMillis(1500));
                await().alias("healthy leases held while the row is stuck").during(TTL.multipliedBy(2))
                        .atMost(TTL.multipliedBy(3)).pollInterval(Duration.ofMillis(100))
                        .until(() -> healthy.stream().noneMatch(Lease::isLost));
                assertThat(failedRenewals).as("only the stuck lease failed to renew").containsOnly(stuck.resource());
                assertThat(stuck.isLost()).as("the stuck lease could not be renewed and ran out").isTrue();
            }
            for (Lease lease : healthy) {
                assertThat(repository.find(lease.resource()).map(LockRecord::owner)).contains(lease.owner());
                assertThat(lease.release()).isEqualTo(LockResult.APPLIED);
            }
        }
    }

    @Test
    void releasingAHealthyLeaseOnceItsBatchTimedOutDoesNotWaitForTheStuckRowsOwnRenewal() throws Exception {
        ch.qos.logback.classic.Logger watchdogLog =
                (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(LeaseWatchdog.class);
        java.util.concurrent.CountDownLatch batchTimedOut = new java.util.concurrent.CountDownLatch(1);
        ch.qos.logback.core.AppenderBase<ch.qos.logback.classic.spi.ILoggingEvent> appender =
                new ch.qos.logback.core.AppenderBase<>() {
                    @Override
                    protected void append(ch.qos.logback.classic.spi.ILoggingEvent event) {
                        if (event.getFormattedMessage().contains("together timed out")) {
                            batchTimedOut.countDown();
                        }
                    }
                };
        appender.start();
        watchdogLog.addAppender(appender);
        try (LockManager manager = LockManager.builder(repository).build()) {
            // Taken together, so that the first renewal round renews them in one batch.
            List<Lease> healthy = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                healthy.add(manager.acquire(LockRequest.of("stuck-row:" + UUID.randomUUID(), TTL)).orElseThrow());
            }
            Lease stuck = manager.acquire(LockRequest.of("stuck-row:" + UUID.randomUUID(), TTL)).orElseThrow();
            try (OutsideSession outside = OutsideSession.lockingRow(database(), table, stuck.resource())) {
                assertThat(batchTimedOut.await(TTL.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS))
                        .as("the batch with the stuck row timed out").isTrue();
                // The watchdog now renews each lease on its own, the stuck one among them, for up to one more bound.
                long start = System.nanoTime();
                for (Lease lease : healthy) {
                    assertThat(lease.release()).isEqualTo(LockResult.APPLIED);
                }
                assertThat(Duration.ofNanos(System.nanoTime() - start))
                        .as("the releases did not wait for the stuck row's own renewal (bound %s)", BOUND)
                        .isLessThan(BOUND.dividedBy(2));
            }
            assertThat(healthy).noneMatch(Lease::isLost);
            stuck.release();
        }
        finally {
            watchdogLog.detachAppender(appender);
        }
    }
}
