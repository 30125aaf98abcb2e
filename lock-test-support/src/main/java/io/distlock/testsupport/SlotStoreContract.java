package io.distlock.testsupport;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.core.CrashPolicy;
import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.LockObserver;
import io.distlock.core.LockRepository;
import io.distlock.core.MissedSlotPolicy;
import io.distlock.core.MissedSlots;
import io.distlock.core.SlotClaim;
import io.distlock.core.SlotExecution;
import io.distlock.core.SlotOutcome;
import io.distlock.core.SlotRequest;
import io.distlock.core.SlotRun;
import io.distlock.core.SlotRunOutcome;
import io.distlock.core.SlotSchedule;
import io.distlock.core.SlotStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Once-per-slot runs on a real store, written once for every store: a slot is claimed only when it is later than
 * the job's last claimed slot, by the live holder of the job's lock; racing and late replicas never run it twice;
 * crashed runs are recorded and, at least once, run again once; missed slots are named and caught up once.
 * Each store runs it in a subclass that says which repository to test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class SlotStoreContract {

    /** A fixed slot epoch: slots are labels, not times the test waits for. */
    protected static final Instant T0 = Instant.parse("2026-03-29T00:00:00Z");

    /** The lease length of the replicas. */
    protected static final Duration TTL = Duration.ofSeconds(30);

    private final List<LockManager> managers = new CopyOnWriteArrayList<>();

    private final List<Instant> crashed = new CopyOnWriteArrayList<>();

    private final List<Duration> tooEarly = new CopyOnWriteArrayList<>();

    /**
     * The store under test.
     *
     * @return its repository, the same on every call
     */
    protected abstract LockRepository repository();

    /** The slot store under test: the repository's. */
    private SlotStore slots() {
        return SlotStore.of(repository());
    }

    @AfterAll
    void closeReplicas() {
        managers.forEach(LockManager::close);
    }

    /**
     * A replica: a manager of its own, with owner tokens of its own.
     *
     * @return the replica's manager
     */
    protected LockManager replica() {
        LockManager manager = LockManager.builder(repository()).verifySchema(false).observer(new LockObserver() {
            @Override
            public void slotCrashed(String name, Instant slot) {
                crashed.add(slot);
            }

            @Override
            public void slotTooEarly(String name, Instant slot, Duration ahead) {
                tooEarly.add(ahead);
            }
        }).build();
        managers.add(manager);
        return manager;
    }

    /**
     * A job name of its own.
     *
     * @return the name
     */
    protected static String job() {
        return "job:" + UUID.randomUUID();
    }

    /**
     * Runs a slot whose work returns the slot it ran for.
     *
     * @param replica the replica
     * @param request the slot
     * @return the outcome
     */
    protected static SlotOutcome<String> run(LockManager replica, SlotRequest request) {
        return replica.runOncePerSlot(request, lease -> "ran " + SlotExecution.current().orElseThrow().slot());
    }

    @Test
    void theHistoryKeepsTheNewestRunsOfEachJobAndDropsOlderOnes() {
        String busy = job();
        String quiet = job();
        LockManager replica = replica();
        int runs = SlotRun.KEPT_PER_JOB + 5;
        for (int i = 1; i <= runs; i++) {
            assertThat(run(replica, SlotRequest.of(busy, T0.plusSeconds(i), TTL)).status())
                    .isEqualTo(SlotOutcome.Status.RAN);
        }
        assertThat(run(replica, SlotRequest.of(quiet, T0, TTL)).status()).isEqualTo(SlotOutcome.Status.RAN);
        List<SlotRun> kept = slots().recentSlotRuns(busy, runs);
        assertThat(kept).hasSize(SlotRun.KEPT_PER_JOB);
        assertThat(kept.get(0).slot()).isEqualTo(T0.plusSeconds(runs));
        assertThat(kept.get(kept.size() - 1).slot()).isEqualTo(T0.plusSeconds(runs - SlotRun.KEPT_PER_JOB + 1));
        assertThat(slots().recentSlotRuns(quiet, runs)).as("another job's history is its own")
                .extracting(SlotRun::slot).containsExactly(T0);
    }

    @Test
    void aSlotRunsOnlyWhenLaterThanTheJobsLastClaimedSlot() {
        String job = job();
        LockManager replica = replica();
        assertThat(run(replica, SlotRequest.of(job, T0.plusSeconds(10), TTL)).status()).isEqualTo(SlotOutcome.Status.RAN);
        assertThat(run(replica, SlotRequest.of(job, T0.plusSeconds(10), TTL)).status())
                .as("the same slot again").isEqualTo(SlotOutcome.Status.ALREADY_CLAIMED);
        assertThat(run(replica, SlotRequest.of(job, T0.plusSeconds(5), TTL)).status())
                .as("an earlier slot").isEqualTo(SlotOutcome.Status.ALREADY_CLAIMED);
        SlotOutcome<String> later = run(replica, SlotRequest.of(job, T0.plusSeconds(20), TTL));
        assertThat(later.status()).isEqualTo(SlotOutcome.Status.RAN);
        assertThat(later.value()).isEqualTo("ran " + T0.plusSeconds(20));
        assertThat(slots().recentSlotRuns(job, 10)).extracting(SlotRun::slot, SlotRun::outcome).containsExactly(
                org.assertj.core.groups.Tuple.tuple(T0.plusSeconds(20), SlotRunOutcome.SUCCEEDED),
                org.assertj.core.groups.Tuple.tuple(T0.plusSeconds(10), SlotRunOutcome.SUCCEEDED));
    }

    @Test
    void aStaleOrForeignOwnerClaimsNothing() {
        String job = job();
        assertThat(slots().claimSlot(job, "nobody:holds-it", T0, false).status())
                .isEqualTo(SlotClaim.Status.NOT_HELD);
        Lease lease = replica().tryAcquire(job, TTL).orElseThrow();
        assertThat(slots().claimSlot(job, "foreign:owner", T0, false).status()).isEqualTo(SlotClaim.Status.NOT_HELD);
        lease.release();
        assertThat(slots().claimSlot(job, lease.owner(), T0, false).status())
                .as("the released owner").isEqualTo(SlotClaim.Status.NOT_HELD);
        assertThat(run(replica(), SlotRequest.of(job, T0, TTL)).status()).isEqualTo(SlotOutcome.Status.RAN);
    }

    @Test
    void sixteenReplicasFiringForTheSameSlotRunItExactlyOnce() throws Exception {
        for (int round = 0; round < 5; round++) {
            String job = job();
            Instant slot = T0.plusSeconds(round);
            AtomicInteger runs = new AtomicInteger();
            List<SlotOutcome.Status> statuses = race(16, () -> replica().runOncePerSlot(
                    SlotRequest.of(job, slot, TTL).withMaxWait(Duration.ofSeconds(20)), lease -> runs.incrementAndGet())
                    .status());
            assertThat(runs).as("round %d", round).hasValue(1);
            assertThat(statuses).filteredOn(s -> s == SlotOutcome.Status.RAN).hasSize(1);
            assertThat(statuses).filteredOn(s -> s == SlotOutcome.Status.ALREADY_CLAIMED).hasSize(15);
        }
    }

    @Test
    void aLateReplicaNeverRunsASlotTwiceEvenWhenLateByMoreThanThePeriod() {
        String job = job();
        LockManager onTime = replica();
        LockManager late = replica();
        List<String> ran = new ArrayList<>();
        for (int tick = 0; tick < 6; tick++) {
            Instant slot = T0.plusSeconds(2L * tick);
            if (run(onTime, SlotRequest.of(job, slot, TTL)).ran()) {
                ran.add("on time " + slot);
            }
            // The late replica's scheduler labels the slot two periods late: it fires for slot - 4 s now.
            Instant lateSlot = slot.minusSeconds(4);
            if (run(late, SlotRequest.of(job, lateSlot, TTL)).ran()) {
                ran.add("late " + lateSlot);
            }
        }
        assertThat(ran).hasSize(6).allMatch(r -> r.startsWith("on time"));
    }

    @Test
    void atMostOnceACrashedSlotIsNotRunAgainAndIsRecordedAndTold() {
        String job = job();
        Instant slot = T0.plusSeconds(60);
        long crashedToken = crashMidRun(job, slot);
        LockManager survivor = replica();
        assertThat(run(survivor, SlotRequest.of(job, slot, TTL)).status()).isEqualTo(SlotOutcome.Status.ALREADY_CLAIMED);
        SlotOutcome<String> next = run(survivor, SlotRequest.of(job, slot.plusSeconds(60), TTL));
        assertThat(next.status()).isEqualTo(SlotOutcome.Status.RAN);
        assertThat(crashed).contains(slot);
        assertThat(slots().recentSlotRuns(job, 10)).filteredOn(r -> r.slot().equals(slot)).singleElement()
                .satisfies(r -> {
                    assertThat(r.outcome()).isEqualTo(SlotRunOutcome.CRASHED);
                    assertThat(r.token()).isEqualTo(crashedToken);
                });
    }

    @Test
    void atLeastOnceACrashedSlotRunsAgainExactlyOnceWhileItIsTheLatest() {
        String job = job();
        Instant slot = T0.plusSeconds(120);
        crashMidRun(job, slot);
        SlotRequest again = SlotRequest.of(job, slot, TTL).withOnCrash(CrashPolicy.AT_LEAST_ONCE);
        SlotOutcome<String> rerun = run(replica(), again);
        assertThat(rerun.status()).isEqualTo(SlotOutcome.Status.RAN);
        assertThat(rerun.rerun()).isTrue();
        assertThat(run(replica(), again).status()).as("a second re-run").isEqualTo(SlotOutcome.Status.ALREADY_CLAIMED);
        assertThat(slots().recentSlotRuns(job, 10)).extracting(SlotRun::run, SlotRun::outcome).containsExactly(
                org.assertj.core.groups.Tuple.tuple(2, SlotRunOutcome.SUCCEEDED),
                org.assertj.core.groups.Tuple.tuple(1, SlotRunOutcome.CRASHED));
    }

    @Test
    void atLeastOnceAFinishedSlotIsNotRunAgain() {
        String job = job();
        SlotRequest request = SlotRequest.of(job, T0, TTL).withOnCrash(CrashPolicy.AT_LEAST_ONCE);
        assertThat(run(replica(), request).status()).isEqualTo(SlotOutcome.Status.RAN);
        assertThat(run(replica(), request).status()).isEqualTo(SlotOutcome.Status.ALREADY_CLAIMED);
    }

    @Test
    void missedSlotsAreNamedAndCaughtUpOnceNotOncePerSlot() {
        String job = job();
        SlotSchedule everySecond = after -> after.plusSeconds(1);
        LockManager replica = replica();
        run(replica, SlotRequest.of(job, T0, TTL).withSchedule(everySecond));
        List<String> runs = new ArrayList<>();
        SlotOutcome<Object> outcome = replica.runOncePerSlot(SlotRequest.of(job, T0.plusSeconds(4), TTL)
                .withSchedule(everySecond).withOnMissed(MissedSlotPolicy.CATCH_UP), lease -> {
                    SlotExecution execution = SlotExecution.current().orElseThrow();
                    runs.add((execution.catchUp() ? "catch-up " : "") + execution.slot());
                    return null;
                });
        assertThat(outcome.missed()).isEqualTo(new MissedSlots(3, T0.plusSeconds(1), T0.plusSeconds(3), true));
        assertThat(runs).containsExactly("catch-up " + T0.plusSeconds(3), T0.plusSeconds(4).toString());
        SlotOutcome<String> skipping = run(replica, SlotRequest.of(job, T0.plusSeconds(7), TTL).withSchedule(everySecond));
        assertThat(skipping.missed()).isEqualTo(new MissedSlots(2, T0.plusSeconds(5), T0.plusSeconds(6), true));
    }

    @Test
    void aSlotWhoseClaimFindsTheStoreDownDoesNotRunAndIsToldMissedByTheNextClaim() {
        String job = job();
        SlotSchedule everySecond = after -> after.plusSeconds(1);
        java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean();
        SlotStore slots = slots();
        final class FailingClaims extends io.distlock.core.DelegatingLockRepository implements SlotStore {

            FailingClaims() {
                super(repository());
            }

            @Override
            public io.distlock.core.SlotClaim claimSlot(String job, String owner, Instant slot,
                    boolean rerunUnfinished) {
                if (down.get()) {
                    throw new org.springframework.dao.DataAccessResourceFailureException(
                            "the store went away after the job's lock was taken (simulated)");
                }
                return slots.claimSlot(job, owner, slot, rerunUnfinished);
            }

            @Override
            public void finishSlot(String job, Instant slot, long token, SlotRunOutcome outcome) {
                slots.finishSlot(job, slot, token, outcome);
            }

            @Override
            public void verifySlots() {
                slots.verifySlots();
            }

            @Override
            public List<SlotRun> recentSlotRuns(@org.jspecify.annotations.Nullable String job, int limit) {
                return slots.recentSlotRuns(job, limit);
            }
        }
        LockRepository failingClaims = new FailingClaims();
        LockManager replica = LockManager.builder(failingClaims).verifySchema(false).build();
        managers.add(replica);
        assertThat(run(replica, SlotRequest.of(job, T0, TTL).withSchedule(everySecond)).status())
                .isEqualTo(SlotOutcome.Status.RAN);
        down.set(true);
        List<Instant> ran = new ArrayList<>();
        assertThatThrownBy(() -> replica.runOncePerSlot(SlotRequest.of(job, T0.plusSeconds(1), TTL)
                .withSchedule(everySecond), lease -> ran.add(SlotExecution.current().orElseThrow().slot())))
                .isInstanceOf(org.springframework.dao.DataAccessResourceFailureException.class);
        assertThat(ran).as("an unclaimed slot never runs").isEmpty();
        assertThat(repository().find(job)).as("the job's lock given back").isEmpty();
        down.set(false);
        SlotOutcome<String> next = run(replica, SlotRequest.of(job, T0.plusSeconds(2), TTL).withSchedule(everySecond));
        assertThat(next.status()).isEqualTo(SlotOutcome.Status.RAN);
        assertThat(next.missed()).as("the slot that did not run")
                .isEqualTo(new MissedSlots(1, T0.plusSeconds(1), T0.plusSeconds(1), true));
    }

    @Test
    void aFailingRunIsRecordedAsFailedAndItsSlotStaysClaimed() {
        String job = job();
        LockManager replica = replica();
        IllegalStateException failure = new IllegalStateException("boom");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> replica.runOncePerSlot(SlotRequest.of(job, T0, TTL),
                lease -> {
                    throw failure;
                })).isSameAs(failure);
        assertThat(slots().recentSlotRuns(job, 1)).singleElement().extracting(SlotRun::outcome)
                .isEqualTo(SlotRunOutcome.FAILED);
        assertThat(run(replica, SlotRequest.of(job, T0, TTL)).status()).isEqualTo(SlotOutcome.Status.ALREADY_CLAIMED);
    }

    // Clocks: a slot is claimed only once its time has come by the store's clock

    @Test
    void aReplicaWhoseClockRunsAheadClaimsNoFutureSlotSoTheOnTimeReplicasRunEverySlot() {
        String job = job();
        SlotSchedule everySecond = SlotSchedule.fixedRate(Duration.ofSeconds(1));
        LockManager ahead = replica();
        LockManager onTime = replica();
        Instant now = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        int before = tooEarly.size();
        List<SlotOutcome.Status> aheadRuns = new ArrayList<>();
        List<SlotOutcome.Status> onTimeRuns = new ArrayList<>();
        for (int tick = 0; tick < 5; tick++) {
            // The replica an hour ahead fires for the slot an hour from now; the on-time one for a slot whose time
            // has come.
            aheadRuns.add(run(ahead, SlotRequest.of(job, now.plusSeconds(3600 + tick), TTL).withSchedule(everySecond))
                    .status());
            SlotOutcome<String> onTimeRun = run(onTime, SlotRequest.of(job, now.minusSeconds(10 - tick), TTL)
                    .withSchedule(everySecond));
            onTimeRuns.add(onTimeRun.status());
            if (tick > 0) {
                assertThat(onTimeRun.missed()).as("nothing missed between on-time slots").isEqualTo(MissedSlots.NONE);
            }
        }
        assertThat(aheadRuns).containsOnly(SlotOutcome.Status.TOO_EARLY);
        assertThat(onTimeRuns).containsOnly(SlotOutcome.Status.RAN);
        assertThat(tooEarly.subList(before, tooEarly.size())).hasSize(5)
                .allSatisfy(offset -> assertThat(offset).isBetween(Duration.ofMinutes(59), Duration.ofMinutes(61)));
        assertThat(slots().recentSlotRuns(job, 10)).as("the early replica left no trace")
                .extracting(SlotRun::slot).doesNotContain(now.plusSeconds(3600));
    }

    @Test
    void aSlotWithinTheEarlyToleranceOfTheStoresClockIsClaimedAndOneBeyondItIsNot() {
        String job = job();
        LockManager replica = replica();
        Instant now = Instant.now();
        Instant beyond = now.plus(SlotRequest.EARLY_TOLERANCE).plusSeconds(30);
        assertThat(run(replica, SlotRequest.of(job, beyond, TTL)).status()).isEqualTo(SlotOutcome.Status.TOO_EARLY);
        Instant within = now.plus(SlotRequest.EARLY_TOLERANCE.dividedBy(4));
        assertThat(run(replica, SlotRequest.of(job, within, TTL)).status()).isEqualTo(SlotOutcome.Status.RAN);
    }

    @Test
    void aClaimRefusedAsTooEarlyNamesTheStoresTimeAndClaimsNothing() {
        String job = job();
        Lease lease = replica().tryAcquire(job, TTL).orElseThrow();
        Instant future = Instant.now().plus(Duration.ofDays(1));
        SlotClaim claim = slots().claimSlot(job, lease.owner(), future, false);
        assertThat(claim.status()).isEqualTo(SlotClaim.Status.TOO_EARLY);
        assertThat(claim.storeTime()).isNotNull().isBetween(Instant.now().minusSeconds(60), Instant.now().plusSeconds(60));
        assertThat(slots().claimSlot(job, lease.owner(), T0, false).status())
                .as("an earlier slot is still claimable").isEqualTo(SlotClaim.Status.CLAIMED);
        lease.release();
    }

    // Missed slots: every one counted, the latest caught up

    @Test
    void missedSlotsBeyondAThousandAreAllCountedAndCatchUpRunsTheLatest() {
        for (SlotSchedule everySecond : List.<SlotSchedule>of(after -> Instant.ofEpochSecond(after.getEpochSecond() + 1),
                SlotSchedule.fixedRate(Duration.ofSeconds(1)))) {
            String job = job();
            LockManager replica = replica();
            run(replica, SlotRequest.of(job, T0, TTL).withSchedule(everySecond));
            List<Instant> runs = new ArrayList<>();
            SlotOutcome<Object> afterAnHour = replica.runOncePerSlot(SlotRequest.of(job, T0.plusSeconds(3600), TTL)
                    .withSchedule(everySecond).withOnMissed(MissedSlotPolicy.CATCH_UP), lease -> {
                        runs.add(SlotExecution.current().orElseThrow().slot());
                        return null;
                    });
            assertThat(afterAnHour.missed()).as("schedule %s", everySecond)
                    .isEqualTo(new MissedSlots(3599, T0.plusSeconds(1), T0.plusSeconds(3599), true));
            assertThat(runs).containsExactly(T0.plusSeconds(3599), T0.plusSeconds(3600));
        }
    }

    @Test
    void replicasRacingAfterAnOutageRunTheCatchUpOnceAsASlotOfItsOwnThatTheHistoryRecords() throws Exception {
        for (int round = 0; round < 3; round++) {
            String job = job();
            SlotSchedule everySecond = after -> Instant.ofEpochSecond(after.getEpochSecond() + 1);
            run(replica(), SlotRequest.of(job, T0, TTL).withSchedule(everySecond));
            Instant slot = T0.plusSeconds(600);
            List<String> runs = new CopyOnWriteArrayList<>();
            // Eight replicas find the same missed slots after an outage: six fire for the slot at hand, two are a
            // period late and fire for the latest missed slot.
            AtomicInteger replicas = new AtomicInteger();
            race(8, () -> {
                Instant fired = replicas.getAndIncrement() % 4 == 0 ? slot.minusSeconds(1) : slot;
                return replica().runOncePerSlot(SlotRequest.of(job, fired, TTL).withSchedule(everySecond)
                        .withOnMissed(MissedSlotPolicy.CATCH_UP).withMaxWait(Duration.ofSeconds(20)), lease -> {
                            SlotExecution execution = SlotExecution.current().orElseThrow();
                            runs.add((execution.catchUp() ? "catch-up " : "") + execution.slot());
                            return null;
                        }).status();
            });
            assertThat(runs).as("round %d", round).filteredOn(run -> run.startsWith("catch-up")).hasSize(1);
            List<String> slotsRun = runs.stream().map(run -> run.replace("catch-up ", "")).toList();
            assertThat(slotsRun).as("every slot run once, the catch-up's included").doesNotHaveDuplicates();
            List<SlotRun> history = slots().recentSlotRuns(job, 10);
            assertThat(history).as("the history records every run, the catch-up's as a slot of its own")
                    .extracting(r -> r.slot().toString()).containsAll(slotsRun).doesNotHaveDuplicates();
            assertThat(history).filteredOn(r -> slotsRun.contains(r.slot().toString()))
                    .allSatisfy(r -> assertThat(r.outcome()).isEqualTo(SlotRunOutcome.SUCCEEDED));
        }
    }

    @Test
    void slotsWithSubMillisecondFireTimesRunOnceEachAndAreNeverToldMissed() {
        String job = job();
        // A schedule started from Instant.now(): fire times every second, 123.456 microseconds past the second.
        SlotSchedule fromNow = after -> Instant.ofEpochSecond(after.minusNanos(123_456).getEpochSecond() + 1, 123_456);
        LockManager replica = replica();
        List<Instant> ran = new ArrayList<>();
        Instant fire = T0.plusNanos(123_456);
        for (int tick = 0; tick < 4; tick++, fire = fromNow.next(fire)) {
            SlotOutcome<Object> outcome = replica.runOncePerSlot(SlotRequest.of(job, fire, TTL).withSchedule(fromNow)
                    .withOnMissed(MissedSlotPolicy.CATCH_UP).withOnCrash(CrashPolicy.AT_LEAST_ONCE), lease -> {
                        ran.add(SlotExecution.current().orElseThrow().slot());
                        return null;
                    });
            assertThat(outcome.status()).isEqualTo(SlotOutcome.Status.RAN);
            assertThat(outcome.missed()).as("tick %d", tick).isEqualTo(MissedSlots.NONE);
            assertThat(run(replica, SlotRequest.of(job, fire, TTL).withSchedule(fromNow)
                    .withOnCrash(CrashPolicy.AT_LEAST_ONCE)).status()).as("the same fire time again")
                    .isEqualTo(SlotOutcome.Status.ALREADY_CLAIMED);
        }
        assertThat(ran).containsExactly(T0, T0.plusSeconds(1), T0.plusSeconds(2), T0.plusSeconds(3));
    }

    @Test
    void aClaimMadeAgainByTheLeaseThatMadeItTellsWhatTheFirstClaimFound() {
        String job = job();
        Instant crashedSlot = T0.plusSeconds(300);
        long crashedToken = crashMidRun(job, crashedSlot);
        Lease lease = replica().tryAcquire(job, TTL).orElseThrow();
        Instant slot = crashedSlot.plusSeconds(60);
        SlotClaim first = slots().claimSlot(job, lease.owner(), slot, false);
        SlotClaim again = slots().claimSlot(job, lease.owner(), slot, false);
        assertThat(first.status()).isEqualTo(SlotClaim.Status.CLAIMED);
        assertThat(first.previousSlot()).isEqualTo(crashedSlot);
        assertThat(first.previousUnfinished()).isTrue();
        assertThat(first.previousToken()).isEqualTo(crashedToken);
        assertThat(again).usingRecursiveComparison().ignoringFields("storeTime").isEqualTo(first);
        lease.release();
    }

    @Test
    void aRunThatCallsForAnotherSlotOfItsOwnJobIsRefusedAndItsSlotEndsAsFailedNotCrashed() {
        String job = job();
        LockManager replica = replica();
        assertThatThrownBy(() -> replica.runOncePerSlot(SlotRequest.of(job, T0, TTL),
                lease -> replica.runOncePerSlot(SlotRequest.of(job, T0.plusSeconds(60), TTL), inner -> "inner")))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("was called inside the run of its slot " + T0);
        assertThat(slots().recentSlotRuns(job, 10)).extracting(SlotRun::slot, SlotRun::outcome)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(T0, SlotRunOutcome.FAILED));
    }

    /** A replica claims the slot and dies mid-run: its lease runs out, and the run never finishes. */
    private long crashMidRun(String job, Instant slot) {
        Lease doomed = replica().tryAcquire(job, Duration.ofMillis(300)).orElseThrow();
        assertThat(slots().claimSlot(job, doomed.owner(), slot, false).status()).isEqualTo(SlotClaim.Status.CLAIMED);
        await().atMost(Duration.ofSeconds(5)).until(() -> repository().find(job).isEmpty());
        return doomed.token();
    }

    private static <T> List<T> race(int threads, Callable<T> task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return task.call();
                }));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get(2, TimeUnit.MINUTES));
            }
            return results;
        }
        finally {
            pool.shutdownNow();
        }
    }
}
