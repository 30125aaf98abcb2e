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
 * The watchdog on a real database while another session holds one leased row locked: the batch passes over the stuck
 * row instead of waiting for it, the watchdog renews the stuck lease on its own, the healthy leases stay held, and
 * releasing one of them waits neither for the batch nor for the stuck row's own renewal.
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
    void releasingAHealthyLeaseWhileAnotherRowOfItsBatchIsLockedElsewhereNeitherWaitsNorLosesIt() throws Exception {
        // The default statement timeout, longer than the TTL: waiting for the stuck row would cost the healthy lease.
        JdbcLockRepository patient = JdbcLockRepository.builder(database().dataSource()).tableName(table.value())
                .dialect(database().dialect()).build();
        Duration ttl = Duration.ofSeconds(3);
        try (LockManager manager = LockManager.builder(patient).build()) {
            // Taken together, so that the first renewal round, a second later, renews them in one batch.
            Lease healthy = manager.acquire(LockRequest.of("stuck-row:" + UUID.randomUUID(), ttl)).orElseThrow();
            Lease stuck = manager.acquire(LockRequest.of("stuck-row:" + UUID.randomUUID(), ttl)).orElseThrow();
            try (OutsideSession outside = OutsideSession.lockingRow(database(), table, stuck.resource())) {
                await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(() -> true);
                long start = System.nanoTime();
                assertThat(healthy.release()).isEqualTo(LockResult.APPLIED);
                assertThat(Duration.ofNanos(System.nanoTime() - start))
                        .as("the release waited neither for the batch nor for the stuck row's own renewal")
                        .isLessThan(Duration.ofSeconds(1));
                assertThat(healthy.lostReason()).as("the healthy lease was renewed in time").isEmpty();
                assertThat(patient.find(healthy.resource())).as("released in the database").isEmpty();
            }
            stuck.release();
        }
    }
}
