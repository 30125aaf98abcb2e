package io.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockTableName;
import io.distlock.testsupport.CountingDataSource;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@link LockManager#runLocked} and {@link LockRequest}: the whole locking policy in one call — acquire or join,
 * keep alive, bind the lease, run, release honouring the minimum hold, report how it ended.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RunLockedTests {

    private LockTableName table;

    private CountingDataSource counting;

    private JdbcLockRepository repository;

    private LockManager locks;

    @BeforeAll
    void createTable() {
        table = TestDatabase.H2.createLockTable();
        counting = new CountingDataSource(TestDatabase.H2.dataSource());
        repository = JdbcLockRepository.builder(counting).tableName(table.value()).build();
        locks = LockManager.builder(repository).build();
    }

    @AfterAll
    void dropTable() {
        locks.close();
        TestDatabase.H2.dropLockTable(table);
    }

    private static String resource() {
        return "run:" + UUID.randomUUID();
    }

    @Test
    void runsTheWorkHoldingTheLockWithTheLeaseBoundAndReleasesAfter() {
        String resource = resource();
        LockOutcome<String> outcome = locks.runLocked(LockRequest.of(resource, Duration.ofMinutes(1)), lease -> {
            assertThat(CurrentLease.require()).isSameAs(lease);
            assertThat(repository.find(resource).orElseThrow().owner()).isEqualTo(lease.owner());
            return "done:" + lease.token();
        });
        assertThat(outcome.status()).isEqualTo(LockOutcome.Status.RAN);
        assertThat(outcome.ran()).isTrue();
        assertThat(outcome.value()).startsWith("done:");
        assertThat(outcome.loss()).isNull();
        assertThat(repository.find(resource)).isEmpty();
        assertThat(CurrentLease.get()).isEmpty();
        assertThat(locks.activeLeases()).isEmpty();
    }

    @Test
    void workDoesNotRunWhileAnotherOwnerHoldsTheLock() {
        String resource = resource();
        try (Lease holder = locks.tryAcquire(resource, Duration.ofMinutes(1)).orElseThrow()) {
            AtomicBoolean ran = new AtomicBoolean();
            LockOutcome<Object> outcome = locks.runLocked(LockRequest.of(resource, Duration.ofMinutes(1)), lease -> {
                ran.set(true);
                return null;
            });
            assertThat(outcome.status()).isEqualTo(LockOutcome.Status.NOT_ACQUIRED);
            assertThat(outcome.ran()).isFalse();
            assertThat(ran).isFalse();
            assertThat(repository.find(resource).orElseThrow().owner()).isEqualTo(holder.owner());
        }
    }

    @Test
    void aNestedCallOnTheSameResourceJoinsTheEnclosingLeaseWithoutAStatement() {
        String resource = resource();
        LockRequest request = LockRequest.of(resource, Duration.ofMinutes(1));
        AtomicReference<Lease> inner = new AtomicReference<>();
        AtomicReference<Integer> statements = new AtomicReference<>();
        locks.runLocked(request, outer -> {
            counting.reset();
            LockOutcome<Object> nested = locks.runLocked(request.withMinHold(Duration.ofMinutes(5)), lease -> {
                inner.set(lease);
                assertThat(CurrentLease.require()).isSameAs(outer);
                return null;
            });
            statements.set(counting.statements());
            assertThat(nested.status()).isEqualTo(LockOutcome.Status.RAN);
            assertThat(outer.isReleased()).as("the enclosing call releases, not the nested one").isFalse();
            assertThat(inner.get()).isSameAs(outer);
            return null;
        });
        assertThat(statements.get()).isZero();
        assertThat(repository.find(resource)).as("the nested call's minHold is ignored").isEmpty();
    }

    @Test
    void theLeaseIsKeptAliveWhileTheWorkRunsLongerThanItsTtl() {
        String resource = resource();
        LockOutcome<Long> outcome = locks.runLocked(LockRequest.of(resource, Duration.ofMillis(300)), lease -> {
            var firstExpiry = lease.expiresAt();
            await().atMost(Duration.ofSeconds(5)).until(() -> lease.expiresAt().isAfter(firstExpiry.plusMillis(300)));
            assertThat(lease.isLost()).isFalse();
            return lease.token();
        });
        assertThat(outcome.status()).isEqualTo(LockOutcome.Status.RAN);
        assertThat(locks.watchdog().watchedCount()).isZero();
    }

    @Test
    void withoutRenewalTheLeaseRunsOutAndTheOutcomeSaysItWasLost() {
        String resource = resource();
        LockOutcome<String> outcome = locks.runLocked(
                LockRequest.of(resource, Duration.ofMillis(200)).withoutRenewal(), lease -> {
                    await().atMost(Duration.ofSeconds(3)).until(lease::isLost);
                    return "late";
                });
        assertThat(outcome.status()).isEqualTo(LockOutcome.Status.LOST);
        assertThat(outcome.ran()).isTrue();
        assertThat(outcome.value()).isEqualTo("late");
        assertThat(outcome.loss()).isInstanceOf(LockLostException.class).hasMessageContaining(resource);
    }

    @Test
    void releaseHonoursTheMinimumHoldTheLeaseWasTakenWith() throws InterruptedException {
        String resource = resource();
        LockRequest request = LockRequest.of(resource, Duration.ofMinutes(1)).withMinHold(Duration.ofMinutes(2));
        AtomicReference<Lease> held = new AtomicReference<>();
        locks.runLocked(request, lease -> {
            held.set(lease);
            return null;
        });
        LockRecord kept = repository.find(resource).orElseThrow();
        assertThat(kept.owner()).isEqualTo(held.get().owner());
        assertThat(kept.expiresAt()).isEqualTo(held.get().acquiredAt().plus(Duration.ofMinutes(2)));

        String other = resource();
        try (Lease lease = locks.acquire(LockRequest.of(other, Duration.ofMinutes(1))
                .withMinHold(Duration.ofMinutes(3))).orElseThrow()) {
            assertThat(lease.minHold()).isEqualTo(Duration.ofMinutes(3));
        }
        assertThat(repository.find(other).orElseThrow().expiresAt())
                .as("close() honours the minimum hold too").isAfter(kept.expiresAt());
    }

    @Test
    void leasesOfTheRequestApiAreKeptAliveByDefaultAndTheOthersAreNot() throws InterruptedException {
        try (Lease kept = locks.acquire(LockRequest.of(resource(), Duration.ofMinutes(1))).orElseThrow();
                Lease plain = locks.tryAcquire(resource(), Duration.ofMinutes(1)).orElseThrow();
                Lease unrenewed = locks.acquire(LockRequest.of(resource(), Duration.ofMinutes(1)).withoutRenewal())
                        .orElseThrow()) {
            assertThat(List.of(kept, plain, unrenewed)).noneMatch(Lease::isLost);
            assertThat(locks.watchdog().watchedCount()).isEqualTo(1);
        }
        assertThat(locks.watchdog().watchedCount()).isZero();
    }

    @Test
    void failingWorkReleasesTheLockAndRethrowsWithTheLossSuppressedWhenItWasLost() {
        String resource = resource();
        IllegalStateException failure = new IllegalStateException("work failed");
        assertThatThrownBy(() -> locks.runLocked(LockRequest.of(resource, Duration.ofMinutes(1)), lease -> {
            throw failure;
        })).isSameAs(failure);
        assertThat(failure.getSuppressed()).isEmpty();
        assertThat(repository.find(resource)).isEmpty();

        IllegalStateException late = new IllegalStateException("late failure");
        assertThatThrownBy(() -> locks.runLocked(LockRequest.of(resource, Duration.ofMillis(150)).withoutRenewal(),
                lease -> {
                    await().atMost(Duration.ofSeconds(3)).until(lease::isLost);
                    throw late;
                })).isSameAs(late);
        assertThat(late.getSuppressed()).singleElement().isInstanceOf(LockLostException.class);
    }

    @Test
    void checkedExceptionsOfTheWorkPassThroughUnwrapped() {
        java.io.IOException failure = new java.io.IOException("disk full");
        assertThatThrownBy(() -> locks.runLocked(LockRequest.of(resource(), Duration.ofMinutes(1)), lease -> {
            throw failure;
        })).isSameAs(failure);
    }

    @Test
    void aWaitingRequestTakesTheLockOnceTheHolderReleasesIt() throws Exception {
        String resource = resource();
        Lease holder = locks.tryAcquire(resource, Duration.ofMinutes(1)).orElseThrow();
        CountDownLatch waiting = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<LockOutcome<Long>> waiter = pool.submit(() -> {
                waiting.countDown();
                return locks.runLocked(LockRequest.of(resource, Duration.ofMinutes(1))
                        .withMaxWait(Duration.ofSeconds(20)), Lease::token);
            });
            assertThat(waiting.await(5, TimeUnit.SECONDS)).isTrue();
            holder.release();
            LockOutcome<Long> outcome = waiter.get(20, TimeUnit.SECONDS);
            assertThat(outcome.status()).isEqualTo(LockOutcome.Status.RAN);
            assertThat(outcome.value()).isGreaterThan(holder.token());
        }
        finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anInterruptedWaitIsNotAcquiredAndKeepsTheInterrupt() {
        String resource = resource();
        try (Lease holder = locks.tryAcquire(resource, Duration.ofMinutes(1)).orElseThrow()) {
            Thread.currentThread().interrupt();
            LockOutcome<Object> outcome = locks.runLocked(LockRequest.of(resource, Duration.ofMinutes(1))
                    .withMaxWait(Duration.ofMinutes(1)), lease -> null);
            assertThat(outcome.status()).isEqualTo(LockOutcome.Status.NOT_ACQUIRED);
            assertThat(Thread.interrupted()).as("interrupt flag kept").isTrue();
            assertThat(holder.isLost()).isFalse();
        }
    }

    @Test
    void interruptOnLossInterruptsTheWorkAndClearsTheInterruptAfterwards() {
        try (LockManager interrupting = LockManager.builder(repository).interruptOnLoss(true).build()) {
            String resource = resource();
            AtomicBoolean interrupted = new AtomicBoolean();
            LockOutcome<Object> outcome = interrupting.runLocked(LockRequest.of(resource, Duration.ofSeconds(1)),
                    lease -> {
                        TestDatabase.H2.execute("UPDATE " + table + " SET owner = 'thief' WHERE resource = '"
                                + resource + "'");
                        try {
                            Thread.sleep(Duration.ofSeconds(10).toMillis());
                        }
                        catch (InterruptedException ex) {
                            interrupted.set(true);
                        }
                        return null;
                    });
            assertThat(interrupted).isTrue();
            assertThat(outcome.status()).isEqualTo(LockOutcome.Status.LOST);
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
        }
    }

    @Test
    void aWaiterInThisProcessTakesTheLockAtOnceWhenTheLockIsReleasedHere() throws Exception {
        String resource = resource();
        java.util.concurrent.atomic.AtomicInteger attempts = new java.util.concurrent.atomic.AtomicInteger();
        LockRepository counted = new CountingAttempts(repository, resource, attempts);
        try (LockManager patient = LockManager.builder(counted).verifySchema(false)
                .maxPollInterval(Duration.ofHours(1)).build()) {
            Lease holder = patient.tryAcquire(resource, Duration.ofMinutes(1)).orElseThrow();
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<java.util.Optional<Lease>> waiter = pool.submit(() -> patient.acquire(
                        LockRequest.of(resource, Duration.ofMinutes(1)).withMaxWait(Duration.ofMinutes(5))));
                // After ten refused attempts the waiter's next poll is at least 5 s away (backoff doubles from 20 ms).
                await().atMost(Duration.ofSeconds(30)).until(() -> attempts.get() >= 11);
                holder.release();
                Lease taken = waiter.get(4, TimeUnit.SECONDS).orElseThrow();
                assertThat(taken.token()).isGreaterThan(holder.token());
                assertThat(attempts.get()).as("woken, not polled: one more attempt").isEqualTo(12);
                taken.release();
            }
            finally {
                pool.shutdownNow();
            }
        }
    }

    /** Counts acquire attempts on one resource. */
    private static final class CountingAttempts extends DelegatingLockRepository {

        private final String resource;

        private final java.util.concurrent.atomic.AtomicInteger attempts;

        CountingAttempts(LockRepository delegate, String resource, java.util.concurrent.atomic.AtomicInteger attempts) {
            super(delegate);
            this.resource = resource;
            this.attempts = attempts;
        }

        @Override
        public java.util.Optional<LockRecord> acquire(String r, String owner, Duration ttl) {
            if (r.equals(resource)) {
                attempts.incrementAndGet();
            }
            return super.acquire(r, owner, ttl);
        }
    }

    @Test
    void ownerTokensCarryOneHundredAndTwentyEightFreshBitsEach() {
        RandomOwnerGenerator owners = new RandomOwnerGenerator("replica");
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String owner = owners.nextOwner();
            assertThat(owner).matches("replica:[A-Za-z0-9_-]{22}");
            byte[] bits = java.util.Base64.getUrlDecoder().decode(owner.substring("replica:".length()));
            assertThat(bits).hasSize(16).isNotEqualTo(new byte[16]);
            assertThat(seen.add(owner)).isTrue();
        }
    }

    @Test
    void badRequestsFailWhenMadeWithAMessageNamingTheField() {
        counting.reset();
        Duration ttl = Duration.ofSeconds(1);
        assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.of(" ", ttl))
                .withMessageContaining("resource must not be blank");
        assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.of("r", Duration.ZERO))
                .withMessageContaining("ttl must be at least");
        assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.of("r", ttl).withMaxWait(Duration.ofSeconds(-1)))
                .withMessageContaining("maxWait must be at least PT0S");
        assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.of("r", ttl).withMinHold(Duration.ofHours(2)))
                .withMessage("minHold (PT2H) must not exceed maxHold (PT1H)");
        assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.of("r", ttl).withMaxHold(Duration.ofDays(4000)))
                .withMessageContaining("maxHold must be at most");
        assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.of("r", ttl).withLabel(""))
                .withMessage("label must not be blank");
        assertThat(counting.statements()).isZero();
        List<LockRequest> fine = new ArrayList<>();
        fine.add(LockRequest.of("r", ttl).withoutRenewal().withMinHold(Duration.ofHours(2)));
        assertThat(fine.get(0).renew()).isFalse();
    }
}
