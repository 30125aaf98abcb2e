package io.distlock.spring.aop;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.core.CurrentLease;
import io.distlock.core.Lease;
import io.distlock.core.LockLostException;
import io.distlock.core.LockManager;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.OwnerFingerprint;
import io.distlock.jdbc.LockTableName;
import io.distlock.spring.LockNotAcquiredException;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What {@code @DistributedLock} guarantees, on a real database: one subclass per database. Each class runs one
 * application context on a lock table of its own, and each test locks resources named after itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(OutputCaptureExtension.class)
abstract class DistributedLockContractTests {

    private LockTableName table;

    private ConfigurableApplicationContext context;

    private GuardedJobs jobs;

    private LockManager lockManager;

    private LockRepository repository;

    /**
     * The database this suite runs on.
     *
     * @return the database
     */
    abstract TestDatabase database();

    @BeforeAll
    void startApplication() {
        TestDatabase database = database();
        table = database.createLockTable();
        context = ContractTestApplication.start(database.dataSource(), "distributed-lock.table-name=" + table,
                "distributed-lock.jdbc.initialize-schema=never", "distributed-lock.interrupt-on-loss=true",
                "test.lock.prefix=placeheld");
        jobs = context.getBean(GuardedJobs.class);
        lockManager = context.getBean(LockManager.class);
        repository = context.getBean(LockRepository.class);
    }

    @AfterAll
    void stopApplication() {
        if (context != null) {
            context.close();
        }
        if (table != null) {
            database().dropLockTable(table);
        }
    }

    @AfterEach
    void noLeaseLeaksOntoTheTestThread() {
        assertThat(CurrentLease.get()).isEmpty();
    }

    @Test
    void resourceTemplateReadsAParameterByName() {
        assertThat(jobs.byName("2026-05")).isEqualTo("report:2026-05");
    }

    @Test
    void resourceTemplateReadsParametersByIndex() {
        assertThat(jobs.byIndex("acme", 42)).isEqualTo("order:acme-42");
    }

    @Test
    void resourceTemplateReadsABean() {
        assertThat(jobs.byBean("7")).isEqualTo("named:7");
    }

    @Test
    void resourceTemplateResolvesAPlaceholder() {
        assertThat(jobs.byPlaceholder("7")).isEqualTo("placeheld:7");
    }

    @Test
    void resourceWithoutExpressionIsUsedVerbatim() {
        assertThat(jobs.literal()).isEqualTo("literal:placeheld:job");
    }

    @Test
    void resourceTemplateReadsTheRootObject() {
        assertThat(jobs.byRoot("x")).isEqualTo("byRoot@GuardedJobs/1");
    }

    @Test
    void resourceEvaluatingToNullFailsWithoutRunningTheMethod() {
        int runs = jobs.runs();
        assertThatIllegalArgumentException().isThrownBy(() -> jobs.nullable(null))
            .withMessageContaining("GuardedJobs.nullable(String)")
            .withMessageContaining("#{#name}")
            .withMessageContaining("evaluated to null");
        assertThatIllegalArgumentException().isThrownBy(() -> jobs.nullable("  "))
            .withMessageContaining("GuardedJobs.nullable(String)")
            .withMessageContaining("must not be blank");
        assertThat(jobs.runs()).isEqualTo(runs);
    }

    @Test
    void skipReturnsNullWithoutRunningTheMethodWhileAnotherOwnerHoldsTheLock() {
        String name = resource("skip");
        try (Lease held = lockManager.tryAcquire(name, Duration.ofSeconds(30)).orElseThrow()) {
            int runs = jobs.runs();
            assertThat(jobs.skip(name)).isNull();
            assertThat(jobs.skipOptional(name)).isEmpty();
            assertThat(jobs.runs()).isEqualTo(runs);
        }
        assertThat(jobs.skip(name)).isEqualTo("ran");
        assertThat(jobs.skipOptional(name)).contains("ran");
    }

    @Test
    void throwShowsOnlyTheHoldersOwnerFingerprint() {
        String name = resource("fingerprint");
        try (Lease held = lockManager.tryAcquire(name, Duration.ofSeconds(30)).orElseThrow()) {
            assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> jobs.throwing(name))
                .satisfies(ex -> {
                    String random = held.owner().substring(held.owner().lastIndexOf(':') + 1);
                    assertThat(ex.getMessage()).contains(OwnerFingerprint.of(held.owner()))
                        .doesNotContain(held.owner()).doesNotContain(random.substring(4));
                    assertThat(ex.holder()).map(LockRecord::owner).contains(held.owner());
                });
            assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> jobs.waitingBriefly(name))
                .withMessageNotContaining(held.owner());
        }
    }

    @Test
    void throwNamesTheResourceAndTheCurrentHolder() {
        String name = resource("throw");
        try (Lease held = lockManager.tryAcquire(name, Duration.ofSeconds(30)).orElseThrow()) {
            int runs = jobs.runs();
            assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> jobs.throwing(name))
                .withMessageContaining("'" + name + "'")
                .withMessageContaining("held by " + OwnerFingerprint.of(held.owner()) + " until ")
                .withMessageNotContaining(held.owner())
                .satisfies(ex -> {
                    assertThat(ex.resource()).isEqualTo(name);
                    assertThat(ex.holder()).map(LockRecord::owner).contains(held.owner());
                    assertThat(ex.holder()).map(LockRecord::token).contains(held.token());
                });
            assertThat(jobs.runs()).isEqualTo(runs);
        }
        assertThat(jobs.throwing(name)).isEqualTo("ran");
    }

    @Test
    void waitRunsTheMethodOnceTheHolderReleases() throws Exception {
        String name = resource("wait");
        Lease held = lockManager.tryAcquire(name, Duration.ofSeconds(30)).orElseThrow();
        CompletableFuture<String> waiting = CompletableFuture.supplyAsync(() -> jobs.waiting(name));
        assertThatThrownBy(() -> waiting.get(500, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        held.release();
        assertThat(waiting.get(20, TimeUnit.SECONDS)).isEqualTo("ran");
    }

    @Test
    void waitGivesUpAfterItsTimeoutLikeThrow() {
        String name = resource("wait-timeout");
        try (Lease held = lockManager.tryAcquire(name, Duration.ofSeconds(30)).orElseThrow()) {
            int runs = jobs.runs();
            long started = System.nanoTime();
            assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> jobs.waitingBriefly(name))
                .withMessageContaining("gave up after waiting PT0.3S")
                .withMessageContaining("held by " + OwnerFingerprint.of(held.owner()));
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
            assertThat(jobs.runs()).isEqualTo(runs);
        }
    }

    @Test
    void minHoldKeepsTheLockHeldAfterTheMethodReturns() {
        String name = resource("min-hold");
        Lease lease = jobs.minHold(name);
        assertThat(lease.isReleased()).isTrue();
        LockRecord row = repository.find(name).orElseThrow();
        assertThat(row.owner()).isEqualTo(lease.owner());
        assertThat(Duration.between(row.acquiredAt(), row.expiresAt())).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        assertThat(lockManager.tryAcquire(name, Duration.ofSeconds(1))).isEmpty();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
            .until(() -> lockManager.tryAcquire(name, Duration.ofSeconds(1)).map(Lease::release).isPresent());
    }

    @Test
    void watchdogKeepsAOneSecondLeaseThroughAFiveSecondMethod() throws Exception {
        String name = resource("watchdog");
        GuardedJobs.WatchdogRun run = jobs.outlastTtl(name, Duration.ofSeconds(5));
        assertThat(run.stolen()).as("acquisitions by another owner").isZero();
        assertThat(run.attempts()).isGreaterThan(5);
        assertThat(run.lease().isLost()).isFalse();
        assertThat(run.last().token()).isEqualTo(run.first().token());
        assertThat(run.last().expiresAt()).isAfter(run.first().expiresAt().plusSeconds(3));
        assertThat(repository.find(name)).isEmpty();
        assertThat(lockManager.watchdog().watchedCount()).isZero();
    }

    @Test
    void lostLeaseIsSeenThroughCurrentLeaseInterruptsTheMethodAndIsReported(CapturedOutput output) {
        String name = resource("lost");
        AtomicReference<Lease> thief = new AtomicReference<>();
        GuardedJobs.LossSeen seen = jobs.loseLease(name, () -> thief.set(steal(name)));
        try {
            assertThat(seen.lost()).isTrue();
            assertThat(seen.interrupted()).as("interrupted by distributed-lock.interrupt-on-loss").isTrue();
            assertThat(seen.checkHeld()).isNotNull().hasMessageContaining(name);
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                    assertThat(context.getBean(GuardedJobs.LostLeases.class).resources()).contains(name));
            assertThat(output).contains("Lost the lock on '" + name + "'")
                .contains("GuardedJobs.loseLease(String, Runnable) returned after losing its lock");
            assertThat(repository.find(name)).map(LockRecord::owner).contains(thief.get().owner());
        }
        finally {
            thief.get().release();
        }
    }

    @Test
    void lostLeaseIsRaisedToTheCallerInThrowMode() {
        String name = resource("lost-throw");
        AtomicReference<Lease> thief = new AtomicReference<>();
        try {
            assertThatExceptionOfType(LockLostException.class)
                .isThrownBy(() -> jobs.loseLeaseThrowing(name, () -> thief.set(steal(name))))
                .withMessageContaining("'" + name + "'");
        }
        finally {
            thief.get().release();
        }
    }

    @Test
    void lostLeaseIsRaisedToTheCallerInWaitModeAsInThrowMode() {
        String name = resource("lost-wait");
        AtomicReference<Lease> thief = new AtomicReference<>();
        try {
            assertThatExceptionOfType(LockLostException.class)
                .isThrownBy(() -> jobs.loseLeaseWaiting(name, () -> thief.set(steal(name))))
                .withMessageContaining("'" + name + "'");
        }
        finally {
            thief.get().release();
        }
    }

    @Test
    void nestedCallOnTheSameResourceJoinsTheOuterLease() {
        String name = resource("nested");
        GuardedJobs.Nesting nesting = jobs.outer(name);
        assertThat(nesting.inner()).isSameAs(nesting.outer());
        assertThat(nesting.afterInner()).isSameAs(nesting.outer());
        assertThat(nesting.statementsDuringInner()).isZero();
        assertThat(nesting.outerReleasedAfterInner()).isFalse();
        assertThat(nesting.outer().isReleased()).isTrue();
        assertThat(repository.find(name)).as("inner minHold ignored, released by the outer call").isEmpty();
    }

    @Test
    void failingNestedCallsNeverLoseTheOuterLeaseFromTheThread() {
        String name = resource("nested-failures");
        String other = resource("nested-failures-other");
        String heldElsewhere = resource("nested-failures-held");
        try (Lease held = lockManager.tryAcquire(heldElsewhere, Duration.ofSeconds(30)).orElseThrow()) {
            GuardedJobs.NestedFailures seen = jobs.outerAfterFailingNestedCalls(name, other, heldElsewhere);
            assertThat(seen.failures()).hasSize(4);
            assertThat(seen.failures().get(0)).isInstanceOf(IllegalStateException.class)
                .hasMessage("nested call on " + name + " failed");
            assertThat(seen.failures().get(1)).isInstanceOf(IllegalStateException.class)
                .hasMessage("nested call on " + other + " failed");
            assertThat(seen.failures().get(2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("evaluated to null");
            assertThat(seen.failures().get(3)).isInstanceOf(LockNotAcquiredException.class);
            assertThat(seen.currentAfterEach()).as("CurrentLease after each failed nested call").hasSize(4)
                .allSatisfy(lease -> assertThat(lease).isSameAs(seen.outer()));
            assertThat(seen.joinedAfterEach()).as("lease a further nested call joined").hasSize(4)
                .allSatisfy(lease -> assertThat(lease).isSameAs(seen.outer()));
            assertThat(seen.outerReleasedInside()).isFalse();
            assertThat(seen.outer().isReleased()).isTrue();
            assertThat(repository.find(name)).as("released by the outer call").isEmpty();
            assertThat(repository.find(other)).as("the failed nested call released its own lock").isEmpty();
            assertThat(repository.find(heldElsewhere)).map(LockRecord::owner).contains(held.owner());
        }
    }

    @Test
    void nestedCallDoesNotJoinALostOuterLease() {
        String name = resource("nested-lost");
        AtomicReference<Lease> thief = new AtomicReference<>();
        try {
            assertThat(jobs.nestedAfterLoss(name, () -> thief.set(steal(name))))
                .as("the inner call tried the lock itself and found the thief's: skipped").isNull();
            assertThat(repository.find(name)).map(LockRecord::owner).contains(thief.get().owner());
        }
        finally {
            thief.get().release();
        }
    }

    @Test
    void lockIsReleasedWhenTheMethodThrows() {
        String name = resource("failing");
        assertThatIllegalStateException().isThrownBy(() -> jobs.failing(name)).withMessage("boom in " + name);
        assertThat(repository.find(name)).isEmpty();
        lockManager.tryAcquire(name, Duration.ofSeconds(1)).orElseThrow().release();
    }

    @Test
    void lockWrapsTheTransactionSoItIsReleasedAfterTheCommit() {
        String name = resource("tx");
        AtomicReference<Optional<LockRecord>> atCommit = new AtomicReference<>();
        AtomicReference<Lease> lease = new AtomicReference<>();
        boolean inTransaction = jobs.transactional(name, held -> {
            lease.set(held);
            atCommit.set(repository.find(name));
        });
        assertThat(inTransaction).isTrue();
        assertThat(atCommit.get()).as("lock row when the transaction committed").isPresent()
            .get().extracting(LockRecord::owner).isEqualTo(lease.get().owner());
        assertThat(lease.get().isReleased()).isTrue();
        assertThat(repository.find(name)).isEmpty();
    }

    @Test
    void currentLeaseIsEmptyOutsideAGuardedMethod() {
        assertThat(CurrentLease.get()).isEmpty();
        assertThatIllegalStateException().isThrownBy(CurrentLease::require)
            .withMessageContaining("only available while a @DistributedLock method runs");
    }

    /** Expires a lease behind its holder's back and takes the lock as another owner. */
    private Lease steal(String name) {
        database().execute("UPDATE " + table + " SET expires_at = acquired_at WHERE resource = '" + name + "'");
        return lockManager.tryAcquire(name, Duration.ofSeconds(30)).orElseThrow();
    }

    private static String resource(String test) {
        return test + ":" + UUID.randomUUID();
    }
}
