package io.distlock.spring.slot;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;

import io.distlock.core.CrashPolicy;
import io.distlock.core.DelegatingLockRepository;
import io.distlock.core.LockManager;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.MissedSlotPolicy;
import io.distlock.core.SlotClaim;
import io.distlock.core.SlotExecution;
import io.distlock.core.SlotOutcome;
import io.distlock.core.SlotRequest;
import io.distlock.core.SlotRunOutcome;
import io.distlock.core.SlotSchedule;
import io.distlock.core.SlotStore;
import io.distlock.core.TimeSource;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockTableName;
import io.distlock.redis.RedisLockRepository;
import io.distlock.redis.testsupport.TestRedis;
import io.distlock.testsupport.TestDatabase;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.scheduling.support.CronExpression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The once-per-slot semantics as properties, checked against {@link SlotModel} on real stores: generated schedules
 * (crons in zones with both daylight-saving directions, Lord Howe's and Chatham's among them; fixed rates down to
 * 100 ms, some with sub-millisecond fire times), replicas whose clocks run behind and ahead of the store's by more
 * than a period, runs longer than the period, crashes mid-run, store outages and both crash and missed-slot
 * policies. The real claim code runs on H2 for the bulk of the cases and on PostgreSQL and MariaDB for a sample, each
 * on a simulated store clock (application time); on Redis, whose clock is its own, on the real clock with short
 * periods. Every case checks: the outcome the model expects; no slot runs twice at most once (at most twice, and only
 * after a crash, at least once); every fire time between two claimed slots is told missed; no slot is claimed before
 * its time by the store's clock.
 *
 * <p>{@code -Djqwik.tries.default=50000} makes the H2 property a long run.
 */
class OncePerSlotProperties {

    private static final List<ZoneId> ZONES = List.of(ZoneId.of("UTC"), ZoneId.of("Europe/Berlin"),
            ZoneId.of("America/New_York"), ZoneId.of("Australia/Lord_Howe"), ZoneId.of("Pacific/Chatham"));

    /** Moments around daylight-saving transitions of those zones in 2026, both directions. */
    private static final List<Instant> TRANSITIONS = List.of(Instant.parse("2026-03-29T01:00:00Z"),
            Instant.parse("2026-10-25T01:00:00Z"), Instant.parse("2026-03-08T07:00:00Z"),
            Instant.parse("2026-11-01T06:00:00Z"), Instant.parse("2026-04-04T15:00:00Z"),
            Instant.parse("2026-10-03T15:30:00Z"), Instant.parse("2026-04-04T14:00:00Z"),
            Instant.parse("2026-09-26T14:00:00Z"));

    private static final List<String> CRONS = List.of("*/10 * * * * *", "0 * * * * *", "0 */15 * * * *",
            "0 0/30 * * * *", "0 0 * * * *", "0 45 * * * *", "0 30 2 * * *", "0 0 2 * * *");

    private static final Map<String, SimulatedStore> simulated = new HashMap<>();

    private static @Nullable RealClockStore redis;

    private static final ch.qos.logback.classic.Logger SLOT_LOGS = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory
        .getLogger("io.distlock");

    private static final ch.qos.logback.classic.Level LEVEL = SLOT_LOGS.getLevel();

    @net.jqwik.api.lifecycle.BeforeContainer
    static void quiet() {
        // Thousands of generated faults, each told at WARN as it should be: the properties check what is told.
        SLOT_LOGS.setLevel(ch.qos.logback.classic.Level.ERROR);
    }

    @Property(edgeCases = EdgeCasesMode.MIXIN)
    void onH2(@ForAll("scenarios") Scenario scenario) {
        check(simulated(TestDatabase.H2), scenario);
    }

    @Property(tries = 100, edgeCases = EdgeCasesMode.MIXIN)
    void onPostgreSql(@ForAll("scenarios") Scenario scenario) {
        check(simulated(TestDatabase.POSTGRESQL), scenario);
    }

    @Property(tries = 100, edgeCases = EdgeCasesMode.MIXIN)
    void onMariaDb(@ForAll("scenarios") Scenario scenario) {
        check(simulated(TestDatabase.MARIADB), scenario);
    }

    @Property(tries = 20, edgeCases = EdgeCasesMode.MIXIN)
    void onRedisOnItsOwnClock(@ForAll("realClockScenarios") Scenario scenario) {
        check(redis(), scenario);
    }

    // Shrunk counterexamples of earlier mistakes, kept as examples

    @Example
    void aReplicaThirteenSecondsAheadOfATenSecondCronClaimsNothing() {
        Trigger everyTenSeconds = cron("*/10 * * * * *", ZoneId.of("UTC"));
        check(simulated(TestDatabase.H2), new Scenario(everyTenSeconds, Instant.parse("2026-03-29T01:00:00Z"),
                List.of(Duration.ofSeconds(13)), CrashPolicy.AT_MOST_ONCE, MissedSlotPolicy.SKIP,
                Duration.ofSeconds(50), List.of(new Fire(0, Kind.RUN))));
    }

    @Example
    void fireTimesWithASubMillisecondPhaseAMillisecondApartAreNotToldMissed() {
        check(simulated(TestDatabase.H2), new Scenario(phasedRate(100, 123_456), Instant.parse("2026-03-29T01:00:00Z"),
                List.of(Duration.ZERO), CrashPolicy.AT_MOST_ONCE, MissedSlotPolicy.SKIP, Duration.ofSeconds(1),
                List.of(new Fire(0, Kind.RUN), new Advance(Duration.ofMillis(1)), new Fire(0, Kind.RUN))));
    }

    @Example
    void aRunTwoPeriodsLongIsFollowedByExactlyOneMissedSlot() {
        SlotTrigger.FixedRate rate = new SlotTrigger.FixedRate(Duration.ofMillis(100));
        check(simulated(TestDatabase.H2), new Scenario(new Trigger(rate, rate::slotAt, rate.description()),
                Instant.parse("2026-03-29T01:00:00Z"), List.of(Duration.ZERO), CrashPolicy.AT_MOST_ONCE,
                MissedSlotPolicy.SKIP, Duration.ofSeconds(1), List.of(new Fire(0, Kind.SLOW), new Fire(0, Kind.RUN))));
    }

    @AfterContainer
    static void dropTables() {
        SLOT_LOGS.setLevel(LEVEL);
        simulated.values().forEach(SimulatedStore::drop);
        simulated.clear();
        if (redis != null) {
            redis.drop();
            redis = null;
        }
    }

    // The check

    static void check(Store store, Scenario scenario) {
        store.startAt(scenario.start());
        String job = "prop:" + UUID.randomUUID();
        SlotModel model = new SlotModel(scenario.trigger().schedule(), scenario.onCrash());
        List<Replica> replicas = new ArrayList<>();
        Map<Instant, Integer> runsOfSlot = new HashMap<>();
        Map<Instant, Boolean> crashedSlot = new HashMap<>();
        Instant lastClaimed = null;
        try {
            for (int i = 0; i < scenario.offsets().size(); i++) {
                replicas.add(new Replica(store.repository(), scenario.offsets().get(i)));
            }
            for (Step step : scenario.steps()) {
                if (step instanceof Advance advance) {
                    store.advance(advance.by());
                    continue;
                }
                Fire fire = (Fire) step;
                Replica replica = replicas.get(fire.replica() % replicas.size());
                Instant slot = scenario.trigger().label(store.now().plus(replica.offset()));
                Instant before = store.now();
                Attempt attempt = replica.fire(store, scenario, job, slot, fire.kind());
                Instant after = store.now();
                SlotModel.Expected expected = store.expected(model, slot, before, after, attempt);
                if (fire.kind() == Kind.OUTAGE && expected.status() != SlotOutcome.Status.LOCKED) {
                    assertThat(attempt.failure()).as("a claim that finds the store down").isInstanceOf(
                            DataAccessResourceFailureException.class);
                    assertThat(attempt.ran()).as("an unclaimed slot never runs").isEmpty();
                    continue;
                }
                if (attempt.failure() != null && !(attempt.failure() instanceof Crash)) {
                    fail("slot " + slot + " failed", attempt.failure());
                }
                SlotOutcome<?> outcome = attempt.outcome();
                SlotOutcome.Status status = outcome != null ? outcome.status() : SlotOutcome.Status.RAN;
                assertThat(status).as("slot %s at store time %s (%s)", slot, before, fire).isEqualTo(expected.status());
                if (status != SlotOutcome.Status.RAN) {
                    continue;
                }
                Instant claimed = slot.truncatedTo(ChronoUnit.MILLIS);
                assertThat(claimed).as("no slot claimed before its time by the store's clock")
                        .isBeforeOrEqualTo(after.plus(SlotRequest.EARLY_TOLERANCE));
                int run = attempt.run();
                assertThat(run).as("run number of slot %s", slot).isEqualTo(expected.run());
                if (outcome != null) {
                    assertThat(outcome.missed().count()).as("slots told missed before %s", slot)
                            .isEqualTo(expected.missed());
                    assertThat(outcome.missed().exact()).isTrue();
                }
                if (lastClaimed != null && run == 1) {
                    assertThat(expected.missed()).isEqualTo(model.firesBetween(lastClaimed, claimed));
                }
                int times = runsOfSlot.merge(claimed, 1, Integer::sum);
                if (times > 1) {
                    assertThat(scenario.onCrash()).as("slot %s ran twice", claimed).isEqualTo(CrashPolicy.AT_LEAST_ONCE);
                    assertThat(crashedSlot.get(claimed)).as("slot %s ran twice, its first run did not crash", claimed)
                            .isTrue();
                    assertThat(times).as("slot %s ran more than twice", claimed).isEqualTo(2);
                }
                crashedSlot.put(claimed, fire.kind() == Kind.CRASH);
                Instant crashedUntil = null;
                if (fire.kind() == Kind.CRASH) {
                    crashedUntil = store.repository().find(job).map(LockRecord::expiresAt).orElseThrow();
                }
                model.claimed(claimed, run, crashedUntil);
                lastClaimed = claimed;
            }
        }
        finally {
            replicas.forEach(Replica::close);
        }
    }

    // Replicas

    /** A crash mid-run: the holder stops without a word, leaving its lease to run out. */
    static final class Crash extends Error {

        private static final long serialVersionUID = 1L;

        Crash() {
            super("the replica stopped mid-run", null, false, false);
        }
    }

    /**
     * What one fire of a replica did.
     *
     * @param outcome the outcome, or {@code null} when it threw
     * @param failure what it threw
     * @param ran the slots the work ran for
     * @param run the run number the work saw
     */
    record Attempt(SlotOutcome<?> outcome, Throwable failure, List<Instant> ran, int run) {
    }

    /** One replica: a manager of its own over the store, with a clock offset, which can crash and lose the store. */
    static final class Replica {

        private final Duration offset;

        private final FaultyRepository repository;

        private final LockManager manager;

        Replica(LockRepository store, Duration offset) {
            this.offset = offset;
            this.repository = new FaultyRepository(store);
            this.manager = LockManager.builder(repository).verifySchema(false).build();
        }

        Duration offset() {
            return offset;
        }

        Attempt fire(Store store, Scenario scenario, String job, Instant slot, Kind kind) {
            SlotRequest request = new SlotRequest(job, slot, scenario.ttl(), scenario.ttl().multipliedBy(4),
                    Duration.ZERO, scenario.onCrash(), scenario.onMissed(), scenario.trigger().schedule(), job);
            List<Instant> ran = new ArrayList<>();
            int[] run = new int[1];
            repository.outage = kind == Kind.OUTAGE;
            try {
                SlotOutcome<Object> outcome = manager.runOncePerSlot(request, lease -> {
                    SlotExecution execution = SlotExecution.current().orElseThrow();
                    ran.add(execution.slot());
                    if (!execution.catchUp()) {
                        run[0] = execution.run();
                        if (kind == Kind.CRASH) {
                            repository.crashing = true;
                            throw new Crash();
                        }
                        if (kind == Kind.SLOW) {
                            store.advance(clamp(SlotModel.gapAround(scenario.trigger().schedule(), slot)
                                    .multipliedBy(2), Duration.ZERO, scenario.ttl().dividedBy(2)));
                        }
                    }
                    return null;
                });
                return new Attempt(outcome, null, ran, run[0]);
            }
            catch (RuntimeException | Crash ex) {
                return new Attempt(null, ex, ran, run[0]);
            }
            finally {
                repository.outage = false;
                repository.crashing = false;
            }
        }

        void close() {
            manager.close();
        }
    }

    /** A store that fails claims while down, and keeps a crashing holder's lease and run unfinished. */
    static final class FaultyRepository extends DelegatingLockRepository implements SlotStore {

        volatile boolean outage;

        volatile boolean crashing;

        FaultyRepository(LockRepository delegate) {
            super(delegate);
        }

        @Override
        public SlotClaim claimSlot(String job, String owner, Instant slot, boolean rerunUnfinished) {
            if (outage) {
                throw new DataAccessResourceFailureException("the store is down (simulated)");
            }
            return SlotStore.of(delegate()).claimSlot(job, owner, slot, rerunUnfinished);
        }

        @Override
        public void finishSlot(String job, Instant slot, long token, SlotRunOutcome outcome) {
            if (!crashing) {
                SlotStore.of(delegate()).finishSlot(job, slot, token, outcome);
            }
        }

        @Override
        public void verifySlots() {
            SlotStore.of(delegate()).verifySlots();
        }

        @Override
        public List<io.distlock.core.SlotRun> recentSlotRuns(@Nullable String job, int limit) {
            return SlotStore.of(delegate()).recentSlotRuns(job, limit);
        }

        @Override
        public io.distlock.core.LockResult release(String resource, String owner, Duration minHold) {
            return crashing ? io.distlock.core.LockResult.APPLIED : super.release(resource, owner, minHold);
        }
    }

    // Stores

    /** A store and its clock, as the properties drive them. */
    interface Store {

        LockRepository repository();

        /** Where the case's time starts: set on a simulated clock; the real clock stays where it is. */
        void startAt(Instant start);

        Instant now();

        void advance(Duration by);

        /** What the model expects of a claim made between two readings of the store's clock. */
        SlotModel.Expected expected(SlotModel model, Instant slot, Instant before, Instant after, Attempt attempt);
    }

    /** A lock table in application time: the store's clock is the test's, moved by the scenario. */
    static final class SimulatedStore implements Store {

        private final TestDatabase database;

        private final LockTableName table;

        private final MutableClock clock = new MutableClock();

        private final JdbcLockRepository repository;

        SimulatedStore(TestDatabase database) {
            this.database = database;
            this.table = database.createLockTable();
            this.repository = JdbcLockRepository.builder(database.dataSource()).tableName(table.value())
                .dialect(database.dialect()).timeSource(TimeSource.APPLICATION).clock(clock).build();
        }

        @Override
        public LockRepository repository() {
            return repository;
        }

        @Override
        public void startAt(Instant start) {
            clock.set(start);
        }

        @Override
        public Instant now() {
            return clock.instant();
        }

        @Override
        public void advance(Duration by) {
            clock.set(clock.instant().plus(by));
        }

        @Override
        public SlotModel.Expected expected(SlotModel model, Instant slot, Instant before, Instant after,
                Attempt attempt) {
            return model.expect(slot, before);
        }

        void drop() {
            database.dropLockTable(table);
        }
    }

    /**
     * Redis on its own clock ({@code TIME}): time moves by waiting, and a claim is judged against both readings of
     * the clock around it, allowing either answer where they differ.
     */
    static final class RealClockStore implements Store {

        private static final Duration CLOCK_MARGIN = Duration.ofMillis(20);

        private final String prefix = TestRedis.newPrefix();

        private final RedisLockRepository repository = RedisLockRepository.builder(TestRedis.connectionFactory())
            .keyPrefix(prefix).build();

        @Override
        public LockRepository repository() {
            return repository;
        }

        @Override
        public void startAt(Instant start) {
        }

        @Override
        public Instant now() {
            return Instant.now();
        }

        @Override
        public void advance(Duration by) {
            try {
                Thread.sleep(by.toMillis());
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
        }

        @Override
        public SlotModel.Expected expected(SlotModel model, Instant slot, Instant before, Instant after,
                Attempt attempt) {
            SlotModel.Expected early = model.expect(slot, before.minus(CLOCK_MARGIN));
            SlotModel.Expected late = model.expect(slot, after.plus(CLOCK_MARGIN));
            SlotOutcome.Status actual = attempt.outcome() != null ? attempt.outcome().status() : null;
            return actual == late.status() ? late : early;
        }

        void drop() {
            TestRedis.deleteKeys(prefix);
        }
    }

    private static synchronized SimulatedStore simulated(TestDatabase database) {
        database.assumeAvailable();
        return simulated.computeIfAbsent(database.id(), id -> new SimulatedStore(database));
    }

    private static synchronized RealClockStore redis() {
        TestRedis.assumeAvailable();
        if (redis == null) {
            redis = new RealClockStore();
        }
        return redis;
    }

    /** A clock the test moves. */
    static final class MutableClock extends Clock {

        private volatile Instant now = Instant.EPOCH;

        void set(Instant instant) {
            now = instant;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    // Scenarios

    /** How a replica's fire goes. */
    enum Kind {
        /** It runs and finishes. */
        RUN,
        /** Its run lasts two periods of the schedule. */
        SLOW,
        /** It stops mid-run. */
        CRASH,
        /** The store is down when it claims. */
        OUTAGE
    }

    interface Step {
    }

    record Advance(Duration by) implements Step {
    }

    record Fire(int replica, Kind kind) implements Step {
    }

    /**
     * A schedule and how a replica labels the slot of a run starting at a moment of its clock.
     *
     * @param schedule the fire times
     * @param labeller the slot of a run starting at a moment
     * @param description for reports
     */
    record Trigger(SlotSchedule schedule, UnaryOperator<Instant> labeller, String description) {

        Instant label(Instant at) {
            return labeller.apply(at);
        }

        @Override
        public String toString() {
            return description;
        }
    }

    /**
     * One generated case.
     *
     * @param trigger the job's schedule
     * @param start where the store's clock starts
     * @param offsets each replica's clock against the store's
     * @param onCrash the crash policy
     * @param onMissed the missed-slot policy
     * @param ttl the leases' length: a crashed run keeps the job's lock that long
     * @param steps what happens, in order
     */
    record Scenario(Trigger trigger, Instant start, List<Duration> offsets, CrashPolicy onCrash,
            MissedSlotPolicy onMissed, Duration ttl, List<Step> steps) {
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<Trigger> triggers = Arbitraries.oneOf(crons(), fixedRates(List.of(100L, 250L, 1000L, 7000L, 60_000L,
                3_600_000L)));
        Arbitrary<Instant> starts = Combinators.combine(Arbitraries.of(TRANSITIONS),
                Arbitraries.longs().between(-3 * 3_600_000L, 3 * 3_600_000L))
            .as((transition, millis) -> transition.plusMillis(millis));
        return Combinators.combine(triggers, starts).flatAs((trigger, start) -> {
            Duration gap = SlotModel.gapAround(trigger.schedule(), start);
            Duration ttl = clamp(gap.multipliedBy(5), Duration.ofSeconds(1), Duration.ofHours(20));
            return Combinators.combine(Arbitraries.just(trigger), Arbitraries.just(start), offsets(gap, true),
                    Arbitraries.of(CrashPolicy.class), Arbitraries.of(MissedSlotPolicy.class), Arbitraries.just(ttl),
                    steps(gap, 40, true))
                .as(Scenario::new);
        });
    }

    @Provide
    Arbitrary<Scenario> realClockScenarios() {
        Arbitrary<Trigger> triggers = fixedRates(List.of(100L, 150L, 250L));
        return triggers.flatMap(trigger -> {
            Duration gap = SlotModel.gapAround(trigger.schedule(), Instant.now());
            return Combinators.combine(Arbitraries.just(trigger), Arbitraries.just(Instant.EPOCH), offsets(gap, false),
                    Arbitraries.of(CrashPolicy.class), Arbitraries.of(MissedSlotPolicy.class),
                    Arbitraries.just(Duration.ofMillis(600)), steps(gap, 14, false))
                .as(Scenario::new);
        });
    }

    private static Arbitrary<Trigger> crons() {
        return Combinators.combine(Arbitraries.of(CRONS), Arbitraries.of(ZONES)).as(OncePerSlotProperties::cron);
    }

    private static Trigger cron(String text, ZoneId zone) {
        SlotTrigger.Cron cron = new SlotTrigger.Cron(CronExpression.parse(text), text, zone);
        return new Trigger(cron, cron::slotAt, cron.description());
    }

    /** Fixed rates, some with fire times a fraction of a millisecond past the period (a start at Instant.now()). */
    private static Arbitrary<Trigger> fixedRates(List<Long> periods) {
        return Combinators.combine(Arbitraries.of(periods), Arbitraries.of(0L, 123_456L, 999_999L)).as((millis, phase) -> {
            if (phase == 0) {
                SlotTrigger.FixedRate rate = new SlotTrigger.FixedRate(Duration.ofMillis(millis));
                return new Trigger(rate, rate::slotAt, rate.description());
            }
            return phasedRate(millis, phase);
        });
    }

    /** Fire times every {@code millis}, {@code phase} nanoseconds past each multiple of the period. */
    private static Trigger phasedRate(long millis, long phase) {
        long period = millis * 1_000_000L;
        SlotSchedule phased = after -> {
            long nanos = after.getEpochSecond() * 1_000_000_000L + after.getNano() - phase;
            return ofNanos((Math.floorDiv(nanos, period) + 1) * period + phase);
        };
        UnaryOperator<Instant> label = at -> {
            Instant early = at.plus(SlotTrigger.EARLY);
            long nanos = early.getEpochSecond() * 1_000_000_000L + early.getNano() - phase;
            return ofNanos(Math.floorDiv(nanos, period) * period + phase);
        };
        return new Trigger(phased, label, "every " + millis + " ms, " + phase + " ns past");
    }

    private static Duration clamp(Duration value, Duration min, Duration max) {
        return value.compareTo(min) < 0 ? min : value.compareTo(max) > 0 ? max : value;
    }

    private static Instant ofNanos(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }

    /** One to three replicas: on time, a little off, behind by periods, just within and just beyond the tolerance. */
    private static Arbitrary<List<Duration>> offsets(Duration gap, boolean exactBoundaries) {
        Duration tolerance = SlotRequest.EARLY_TOLERANCE;
        List<Duration> choices = new ArrayList<>(List.of(Duration.ZERO, Duration.ofMillis(-30), Duration.ofMillis(40),
                gap.negated(), gap.multipliedBy(-3), gap.plus(tolerance).plusSeconds(2), Duration.ofHours(1)));
        if (exactBoundaries) {
            choices.addAll(List.of(tolerance.minusMillis(150), tolerance.minusMillis(100), tolerance.plusMillis(1),
                    gap, gap.multipliedBy(3)));
        }
        return Arbitraries.of(choices).list().ofMinSize(1).ofMaxSize(3);
    }

    private static Arbitrary<List<Step>> steps(Duration gap, int maxSteps, boolean longOutages) {
        long gapMillis = Math.max(1, gap.toMillis());
        Arbitrary<Step> advance = Arbitraries.longs().between(0, 3 * gapMillis)
            .map(millis -> (Step) new Advance(Duration.ofMillis(millis)));
        Arbitrary<Step> fire = Combinators.combine(Arbitraries.integers().between(0, 2),
                Arbitraries.of(Kind.class).edgeCases(edges -> edges.add(Kind.RUN)))
            .as((replica, kind) -> (Step) new Fire(replica, kind));
        Arbitrary<Step> longOutage = Arbitraries.longs().between(10, 40)
            .map(periods -> (Step) new Advance(gap.multipliedBy(periods)));
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(5, fire), net.jqwik.api.Tuple.of(4, advance),
                net.jqwik.api.Tuple.of(longOutages ? 1 : 0, longOutage)).list().ofMinSize(1).ofMaxSize(maxSteps);
    }
}
