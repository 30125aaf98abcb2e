package io.distlock.spring.slot;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.OncePerSlot;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code @OncePerSlot} declaration is checked at start-up; a mistake fails the start naming class, method and
 * attribute.
 */
@org.junit.jupiter.api.extension.ExtendWith(org.springframework.boot.test.system.OutputCaptureExtension.class)
class OncePerSlotDeclarationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class, DistributedLockSlotAutoConfiguration.class));

    @Test
    void aMethodThatIsNotScheduledIsRefused() {
        runner.withBean(NotScheduled.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining("@OncePerSlot on " + NotScheduled.class.getName() + ".run()")
                .hasMessageContaining("is not @Scheduled"));
    }

    @Test
    void aFixedDelayIsRefusedBecauseItDefinesNoSlots() {
        runner.withBean(FixedDelay.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining(FixedDelay.class.getName() + ".run()")
                .hasMessageContaining("fixed delay"));
    }

    @Test
    void aMethodAlsoGuardedByDistributedLockIsRefused() {
        runner.withBean(Both.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining("also @DistributedLock"));
    }

    @Test
    void aBadTtlAndABadCronAreRefusedNamingTheAttribute() {
        runner.withBean(BadTtl.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining("attribute 'ttl' = 'PT5X'"));
        runner.withBean(BadCron.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining("cron '0 0 25 * * *'"));
    }

    @Test
    void unresolvablePlaceholdersAreAllReportedAsTheyAreForDistributedLock() {
        String method = "@OncePerSlot on " + UnresolvablePlaceholders.class.getName() + ".run(): ";
        runner.withBean(UnresolvablePlaceholders.class).run(context -> assertThat(context).getFailure()
                .isInstanceOf(io.distlock.spring.support.InvalidLockDeclarationException.class)
                .hasMessageContaining(method + "attribute 'job' = '${no.such.job}' has a placeholder that cannot be "
                        + "resolved")
                .hasMessageContaining(method + "attribute 'ttl' = '${no.such.ttl}' has a placeholder that cannot be "
                        + "resolved"));
    }

    @Test
    void durationsWithoutAUnitAreRefusedRatherThanReadAsMilliseconds() {
        String unitless = "has no unit: a number alone is not read as milliseconds; use ISO-8601 such as PT30S, or a "
                + "number with a unit such as 30s or 500ms (ns, us, ms, s, m, h, d)";
        runner.withBean(BareNumbers.class).withPropertyValues("jobs.max-hold=7200")
            .run(context -> assertThat(context).getFailure()
                .hasMessageContaining("@OncePerSlot on " + BareNumbers.class.getName() + ".run(): attribute 'ttl' = "
                        + "'30' " + unitless)
                .hasMessageContaining("attribute 'maxHold' = '${jobs.max-hold}' (resolved '7200') " + unitless));
    }

    @Test
    void cronAndFixedRateMethodsStart() {
        runner.withBean(Fine.class).run(context -> assertThat(context).hasNotFailed()
                .hasSingleBean(OncePerSlotAdvisor.class));
    }

    @Test
    void aLockTableWithoutTheSlotColumnsFailsTheStartNamingTheUpgradeScript() {
        runner.withPropertyValues("spring.datasource.url=jdbc:h2:mem:old-" + java.util.UUID.randomUUID()
                + ";DB_CLOSE_DELAY=-1;INIT=CREATE SEQUENCE IF NOT EXISTS distributed_locks_token_seq\\;"
                + "CREATE TABLE IF NOT EXISTS distributed_locks (resource VARCHAR(255) PRIMARY KEY, owner VARCHAR(255) "
                + "NOT NULL, token BIGINT NOT NULL, acquired_at TIMESTAMP(6) WITH TIME ZONE NOT NULL, expires_at "
                + "TIMESTAMP(6) WITH TIME ZONE NOT NULL)", "distributed-lock.jdbc.initialize-schema=never")
            .withBean(Fine.class)
            .run(context -> assertThat(context).getFailure()
                    .hasStackTraceContaining("upgrade-slots-h2.sql, then io/distlock/jdbc/dialect/schema-h2.sql"));
    }

    @Test
    void finalStaticAndPrivateScheduledMethodsAreRefusedBecauseTheyWouldRunOnEveryReplica() {
        runner.withBean(Unreachable.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining("@OncePerSlot on " + Unreachable.class.getName() + ".finalJob(): the method is "
                        + "final, so Spring AOP proxies cannot intercept it and it would run on every replica for "
                        + "every slot, unguarded")
                .hasMessageContaining(Unreachable.class.getName() + ".staticJob(): the method is static")
                .hasMessageContaining(Unreachable.class.getName() + ".privateJob(): the method is private"));
    }

    @Test
    void aSingletonThatWasNotProxiedIsRefusedBecauseItsSlotsWouldRunOnEveryReplica() {
        runner.withInitializer(context -> context.getBeanFactory().registerSingleton("unproxied", new Fine()))
            .run(context -> assertThat(context).getFailure()
                .hasMessageContaining("Bean 'unproxied' (" + Fine.class.getName() + ") has @OncePerSlot methods but "
                        + "is not proxied by the once-per-slot advisor"));
    }

    @Test
    void aMethodReturningAPrimitiveIsRefusedAsADistributedLockWithSkipIs() {
        runner.withBean(ReturnsInt.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining("@OncePerSlot on " + ReturnsInt.class.getName() + ".count(): the method returns "
                        + "int, but a slot that does not run here returns null"));
    }

    @Test
    void twoMethodsSharingOneJobNameAreRefused() {
        runner.withBean(SharedJob.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining("@OncePerSlot job 'report' is declared by 2 methods ("
                        + SharedJob.class.getName() + ".daily(), " + SharedJob.class.getName() + ".hourly())"));
    }

    @Test
    void aSchedulerNameThatNamesNoSchedulerIsRefused() {
        runner.withBean(NamedScheduler.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining("@Scheduled(scheduler = \"reports\") cannot be used: no bean is named 'reports'"));
        runner.withBean(NamedScheduler.class).withBean("reports", String.class, () -> "not a scheduler")
            .run(context -> assertThat(context).getFailure()
                .hasMessageContaining("the bean 'reports' is a java.lang.String, neither a TaskScheduler nor a "
                        + "ScheduledExecutorService"));
        runner.withBean(NamedScheduler.class)
            .withBean("reports", java.util.concurrent.ScheduledExecutorService.class,
                    java.util.concurrent.Executors::newSingleThreadScheduledExecutor)
            .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void fixedRatesWithUnitsStartAsSpringsSchedulingReadsThem() {
        runner.withBean(RatesWithUnits.class).run(context -> {
            assertThat(context).hasNotFailed();
            SlotMethods methods = context.getBean(SlotMethods.class);
            assertThat(methods.declared()).extracting(SlotMethod::job, method -> method.trigger().period())
                    .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("one-second", java.time.Duration.ofSeconds(1)),
                            org.assertj.core.groups.Tuple.tuple("half-second", java.time.Duration.ofMillis(500)),
                            org.assertj.core.groups.Tuple.tuple("iso", java.time.Duration.ofSeconds(2)),
                            org.assertj.core.groups.Tuple.tuple("seconds-unit", java.time.Duration.ofSeconds(3)));
        });
    }

    @Test
    void everyWrongDeclarationOfTheContextIsReportedInOneFailure() {
        runner.withBean(NotScheduled.class).withBean(Unreachable.class).withBean(ReturnsInt.class).withBean(BadTtl.class)
            .run(context -> assertThat(context).getFailure()
                .hasMessageContaining("is not @Scheduled").hasMessageContaining("is final")
                .hasMessageContaining("returns int").hasMessageContaining("attribute 'ttl' = 'PT5X'"));
    }

    @Test
    void aCronWithoutAZoneStartsWithAWarningNamingTheDefaultZone(
            org.springframework.boot.test.system.CapturedOutput output) {
        runner.withBean(Zoneless.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(output.getOut()).contains("@OncePerSlot cron jobs without a zone follow this JVM's default zone ("
                    + java.time.ZoneId.systemDefault() + "): " + Zoneless.class.getName() + ".run()");
        });
    }

    @Test
    void wrongDeclarationsOfBothAnnotationsAreReportedInOneFailure() {
        runner.withBean(NotScheduled.class).withBean(BadLock.class).run(context -> {
            assertThat(context).hasFailed();
            Throwable failure = org.springframework.core.NestedExceptionUtils.getMostSpecificCause(
                    context.getStartupFailure());
            assertThat(failure).isInstanceOf(io.distlock.spring.support.InvalidLockDeclarationException.class);
            assertThat(((io.distlock.spring.support.InvalidLockDeclarationException) failure).problems())
                .anyMatch(problem -> problem.startsWith("@DistributedLock on " + BadLock.class.getName()
                        + ".run(): attribute 'ttl' = '30'"))
                .anyMatch(problem -> problem.startsWith("@OncePerSlot on " + NotScheduled.class.getName()
                        + ".run()") && problem.contains("is not @Scheduled"));
        });
    }

    @Test
    void reactiveResultsWhichSpringsSchedulerSubscribesToStart() {
        runner.withBean(Reactive.class).run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void aFutureIsRefusedBecauseSpringsSchedulerDoesNotRunItsWorkToItsEnd() {
        runner.withBean(Future.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining("@OncePerSlot on " + Future.class.getName() + ".run(): the method returns "
                        + "java.util.concurrent.CompletableFuture: Spring's scheduler runs no future's work to its end")
                .hasMessageContaining(Future.class.getName() + ".bare(): the method returns "
                        + "java.util.concurrent.Future, which cannot be guarded"));
    }

    @Test
    void aResultThatCannotCompleteEmptyIsRefusedSinceASlotThatDoesNotRunHereCompletesEmpty() {
        runner.withBean(SingleJob.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining("@OncePerSlot on " + SingleJob.class.getName() + ".run(): the method returns "
                        + "io.reactivex.rxjava3.core.Single, which cannot complete empty, but a slot that does not "
                        + "run here completes empty"));
    }

    @Test
    void twoBeansOfOneClassAreRefusedBecauseEachSlotWouldRunForOnlyOneOfThem() {
        runner.withBean("first", Zoned.class).withBean("second", Zoned.class).run(context -> assertThat(context)
                .getFailure().hasMessageContaining("@OncePerSlot job 'zoned' belongs to 2 beans (first, second)"));
    }

    @Test
    void aPrototypeBeanIsRefusedBecauseItsInstancesWouldShareOneJob() {
        runner.withBean("prototype", Zoned.class, Zoned::new, definition -> definition.setScope("prototype"))
            .run(context -> assertThat(context).getFailure().hasMessageContaining("Bean 'prototype' ("
                    + Zoned.class.getName() + ") has @OncePerSlot methods but is not a singleton"));
    }

    @Test
    void aOneShotTriggerIsRefusedForWhatItIs() {
        runner.withBean(OneShot.class).run(context -> assertThat(context).getFailure().hasMessageContaining(
                "its @Scheduled trigger runs once (an initial delay alone) and defines no slots"));
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = { "PST", "EST", "CTT", "GMT+1", "GMT-0930",
            "America/New_York" })
    void aZoneSpringAcceptsLabelsSlotsInTheZoneSpringsCronTriggerFiresIn(String zone) {
        runner.withBean(ZoneFromProperty.class).withPropertyValues("test.zone=" + zone).run(context -> {
            assertThat(context).hasNotFailed();
            java.util.TimeZone spring = org.springframework.util.StringUtils.parseTimeZoneString(zone);
            SlotTrigger.Cron cron = (SlotTrigger.Cron) context.getBean(SlotMethods.class).declared().get(0).trigger();
            assertThat(cron.zone()).isEqualTo(spring.toZoneId());
            java.time.Instant from = java.time.Instant.parse("2026-06-01T00:00:00Z");
            for (int day = 0; day < 3; day++, from = from.plus(java.time.Duration.ofDays(1))) {
                java.time.Instant fire = new org.springframework.scheduling.support.CronTrigger("0 0 9 * * *", spring)
                        .nextExecution(new org.springframework.scheduling.support.SimpleTriggerContext(
                                java.time.Clock.fixed(from, java.time.ZoneOffset.UTC)));
                assertThat(cron.next(from)).as("the fire time after %s", from).isEqualTo(fire);
                assertThat(cron.slotAt(fire.plusSeconds(5))).isEqualTo(fire);
            }
        });
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = { "UTC+01:00", "Mars/Olympus_Mons", "+02:00" })
    void aZoneSpringRefusesIsRefusedWithSpringsReasonNamingTheMethod(String zone) {
        String reason = org.assertj.core.api.Assertions.catchThrowable(
                () -> org.springframework.util.StringUtils.parseTimeZoneString(zone)).getMessage();
        runner.withBean(ZoneFromProperty.class).withPropertyValues("test.zone=" + zone).run(context -> assertThat(
                context).getFailure().hasMessageContaining("@OncePerSlot on " + ZoneFromProperty.class.getName()
                        + ".run(): the @Scheduled zone '" + zone + "' is refused by Spring's scheduling: " + reason));
    }

    @Test
    void twoBeansOfTwoClassesNamingOneJobThroughPlaceholdersAreRefused() {
        runner.withBean(ZoneFromProperty.class).withBean(SharedThroughPlaceholder.class)
            .withPropertyValues("test.zone=UTC", "test.job=nightly").run(context -> assertThat(context).getFailure()
                .hasMessageContaining("@OncePerSlot job 'nightly' is declared by 2 methods (")
                .hasMessageContaining(ZoneFromProperty.class.getName() + ".run()")
                .hasMessageContaining(SharedThroughPlaceholder.class.getName() + ".run()"));
    }

    @Test
    void aDisabledCronStartsAndIsNotListedAsAJobWithSlots() {
        runner.withBean(Disabled.class).withBean(Zoned.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(SlotJobs.class).declared()).extracting(SlotJobs.SlotJob::job)
                    .containsExactly("zoned");
        });
    }

    @Test
    void aJobOnAConfigurationClassIsNamedAfterTheClassAsWrittenNotItsGeneratedSubclass() {
        runner.withUserConfiguration(JobConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(SlotMethods.class).declared()).singleElement().satisfies(method -> {
                assertThat(method.job()).isEqualTo(JobConfiguration.class.getName() + ".run");
                assertThat(method.description()).isEqualTo(JobConfiguration.class.getName() + ".run()");
            });
        });
    }

    @Test
    void aFixedRateWithAnInitialDelayAndATimeUnitStartsWithTheRateInItsUnit() {
        runner.withBean(DelayedRate.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(SlotMethods.class).declared()).singleElement()
                    .satisfies(method -> assertThat(method.trigger().period())
                            .isEqualTo(java.time.Duration.ofMinutes(2)));
        });
    }

    @Test
    void repeatedTriggersDefineTheFireTimesOfThemAll() {
        runner.withBean(WeekdaysAndWeekends.class).run(context -> {
            assertThat(context).hasNotFailed();
            SlotTrigger trigger = context.getBean(SlotMethods.class).declared().get(0).trigger();
            java.time.Instant friday = java.time.Instant.parse("2026-12-04T10:00:00Z");
            assertThat(trigger.next(friday)).isEqualTo(java.time.Instant.parse("2026-12-05T12:00:00Z"));
            assertThat(trigger.slotAt(friday)).isEqualTo(java.time.Instant.parse("2026-12-04T09:00:00Z"));
            assertThat(trigger.slotAt(java.time.Instant.parse("2026-12-06T13:00:00Z")))
                    .isEqualTo(java.time.Instant.parse("2026-12-06T12:00:00Z"));
        });
    }

    /** Weekdays at nine, weekends at noon. */
    static class WeekdaysAndWeekends {

        @Scheduled(cron = "0 0 9 * * MON-FRI", zone = "UTC")
        @Scheduled(cron = "0 0 12 * * SAT,SUN", zone = "UTC")
        @OncePerSlot(job = "weekdays-and-weekends")
        public void run() {
        }
    }

    /** A cron whose zone comes from a property; the job's name too. */
    static class ZoneFromProperty {

        @Scheduled(cron = "0 0 9 * * *", zone = "${test.zone}")
        @OncePerSlot(job = "${test.job:zone-from-property}")
        public void run() {
        }
    }

    /** Another class naming its job through a placeholder. */
    static class SharedThroughPlaceholder {

        @Scheduled(fixedRate = 1000)
        @OncePerSlot(job = "${test.job}")
        public void run() {
        }
    }

    /** A cron switched off, as Spring allows, through a placeholder's default. */
    static class Disabled {

        @Scheduled(cron = "${test.disabled-cron:-}")
        @OncePerSlot(job = "disabled")
        public void run() {
        }
    }

    /** A job declared on a configuration class, which Spring subclasses. */
    @org.springframework.context.annotation.Configuration
    static class JobConfiguration {

        @Scheduled(cron = "0 0 * * * *", zone = "UTC")
        @OncePerSlot
        public void run() {
        }
    }

    /** A fixed rate in minutes, after an initial delay. */
    static class DelayedRate {

        @Scheduled(initialDelay = 30, fixedRate = 2, timeUnit = java.util.concurrent.TimeUnit.MINUTES)
        @OncePerSlot(job = "delayed-rate")
        public void run() {
        }
    }

    /** Asynchronous results. */
    static class Reactive {

        @Scheduled(cron = "0 * * * * *", zone = "UTC")
        @OncePerSlot(job = "mono")
        public reactor.core.publisher.Mono<Void> mono() {
            return reactor.core.publisher.Mono.empty();
        }

        @Scheduled(cron = "0 * * * * *", zone = "UTC")
        @OncePerSlot(job = "flux")
        public reactor.core.publisher.Flux<String> flux() {
            return reactor.core.publisher.Flux.empty();
        }
    }

    /** A wrong @DistributedLock declaration beside the wrong @OncePerSlot ones. */
    static class BadLock {

        @io.distlock.spring.DistributedLock(resource = "bad", ttl = "30")
        public void run() {
        }
    }

    /** Futures, which Spring's scheduler does not wait for. */
    static class SingleJob {

        @Scheduled(cron = "0 * * * * *", zone = "UTC")
        @OncePerSlot(job = "single")
        public io.reactivex.rxjava3.core.Single<String> run() {
            return io.reactivex.rxjava3.core.Single.just("done");
        }
    }

    static class Future {

        @Scheduled(cron = "0 * * * * *", zone = "UTC")
        @OncePerSlot(job = "future")
        public java.util.concurrent.CompletableFuture<Void> run() {
            return java.util.concurrent.CompletableFuture.completedFuture(null);
        }

        @Scheduled(cron = "0 * * * * *", zone = "UTC")
        @OncePerSlot(job = "bare")
        public java.util.concurrent.Future<Void> bare() {
            return java.util.concurrent.CompletableFuture.completedFuture(null);
        }
    }

    /** A job with a zone and a name. */
    static class Zoned {

        @Scheduled(cron = "0 * * * * *", zone = "UTC")
        @OncePerSlot(job = "zoned")
        public void run() {
        }
    }

    /** A trigger that runs once. */
    static class OneShot {

        @Scheduled(initialDelay = 1000)
        @OncePerSlot
        public void run() {
        }
    }

    /** Methods a proxy cannot reach. */
    static class Unreachable {

        @Scheduled(cron = "0 * * * * *")
        @OncePerSlot
        public final void finalJob() {
        }

        @Scheduled(cron = "0 * * * * *")
        @OncePerSlot
        public static void staticJob() {
        }

        @Scheduled(cron = "0 * * * * *")
        @OncePerSlot
        private void privateJob() {
        }

        @Scheduled(cron = "0 * * * * *")
        @OncePerSlot
        public void reachable() {
        }
    }

    /** A primitive result. */
    static class ReturnsInt {

        @Scheduled(cron = "0 * * * * *")
        @OncePerSlot
        public int count() {
            return 1;
        }
    }

    /** One job name, two methods. */
    static class SharedJob {

        @Scheduled(cron = "0 0 * * * *", zone = "UTC")
        @OncePerSlot(job = "report")
        public void hourly() {
        }

        @Scheduled(cron = "0 0 0 * * *", zone = "UTC")
        @OncePerSlot(job = "report")
        public void daily() {
        }
    }

    /** A named scheduler. */
    static class NamedScheduler {

        @Scheduled(fixedRate = 1000, scheduler = "reports")
        @OncePerSlot
        public void run() {
        }
    }

    /** Rates written as Spring's scheduling accepts them. */
    static class RatesWithUnits {

        @Scheduled(fixedRateString = "1s")
        @OncePerSlot(job = "one-second")
        public void oneSecond() {
        }

        @Scheduled(fixedRateString = "500ms")
        @OncePerSlot(job = "half-second")
        public void halfSecond() {
        }

        @Scheduled(fixedRateString = "PT2S")
        @OncePerSlot(job = "iso")
        public void iso() {
        }

        @Scheduled(fixedRateString = "3", timeUnit = java.util.concurrent.TimeUnit.SECONDS)
        @OncePerSlot(job = "seconds-unit")
        public void secondsUnit() {
        }
    }

    /** A cron without a zone. */
    static class Zoneless {

        @Scheduled(cron = "0 * * * * *")
        @OncePerSlot
        public void run() {
        }
    }

    /** Not scheduled. */
    static class NotScheduled {

        @OncePerSlot
        public void run() {
        }
    }

    /** A fixed delay. */
    static class FixedDelay {

        @Scheduled(fixedDelay = 1000)
        @OncePerSlot
        public void run() {
        }
    }

    /** Both annotations. */
    static class Both {

        @Scheduled(cron = "0 * * * * *")
        @OncePerSlot
        @DistributedLock(resource = "both")
        public void run() {
        }
    }

    /** A bad TTL. */
    static class BadTtl {

        @Scheduled(cron = "0 * * * * *")
        @OncePerSlot(ttl = "PT5X")
        public void run() {
        }
    }

    /** Durations without a unit. */
    static class BareNumbers {

        @Scheduled(cron = "0 * * * * *")
        @OncePerSlot(ttl = "30", maxHold = "${jobs.max-hold}")
        public void run() {
        }
    }

    /** Placeholders no property resolves. */
    static class UnresolvablePlaceholders {

        @Scheduled(cron = "0 * * * * *")
        @OncePerSlot(job = "${no.such.job}", ttl = "${no.such.ttl}")
        public void run() {
        }
    }

    /** A cron that does not parse. */
    static class BadCron {

        @Scheduled(cron = "0 0 25 * * *")
        @OncePerSlot
        public void run() {
        }
    }

    /** Valid declarations. */
    static class Fine {

        @Scheduled(cron = "0 0 * * * *", zone = "Europe/Berlin")
        @OncePerSlot(job = "hourly")
        public void hourly() {
        }

        @Scheduled(fixedRate = 5000)
        @OncePerSlot
        public void everyFiveSeconds() {
        }
    }
}
