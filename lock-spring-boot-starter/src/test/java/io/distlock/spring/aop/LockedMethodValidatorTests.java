package io.distlock.spring.aop;

import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.OnLocked;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.spring.support.InvalidLockDeclarationException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every wrong {@link DistributedLock} declaration fails the application context at start-up with a message naming
 * the class, the method and the attribute. These checks do not touch the database, so they run on embedded H2 only.
 */
@org.junit.jupiter.api.extension.ExtendWith(org.springframework.boot.test.system.OutputCaptureExtension.class)
class LockedMethodValidatorTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, AopAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class));

    @Test
    void validDeclarationsStart() {
        runner.withBean(Valid.class).withPropertyValues("jobs.ttl=PT1M").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Valid.class).optional()).contains("ran");
        });
    }

    @Test
    void unparseableTtlNamesClassMethodAndAttribute() {
        runner.withBean(BadTtl.class).run(failsWith(BadTtl.class.getName() + ".run(String): attribute 'ttl' = 'PT5X' "
                + "is not a duration: use ISO-8601 such as PT30S, or a number with a unit such as 30s or 500ms "
                + "(ns, us, ms, s, m, h, d)"));
    }

    @Test
    void durationsWithoutAUnitAreRefusedRatherThanReadAsMilliseconds() {
        runner.withBean(BareNumbers.class).run(context -> {
            assertThat(context).hasFailed();
            String unitless = "has no unit: a number alone is not read as milliseconds; use ISO-8601 such as PT30S, "
                    + "or a number with a unit such as 30s or 500ms (ns, us, ms, s, m, h, d)";
            String method = "@DistributedLock on " + BareNumbers.class.getName();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                .isInstanceOf(InvalidLockDeclarationException.class)
                .hasMessageContaining(method + ".run(): attribute 'ttl' = '30' " + unitless)
                .hasMessageContaining(method + ".run(): attribute 'minHold' = '5' " + unitless)
                .hasMessageContaining(method + ".run(): attribute 'maxHold' = '3600' " + unitless)
                .hasMessageContaining(method + ".await(): attribute 'waitTimeout' = '500' " + unitless);
        });
    }

    @Test
    void aPlaceholderThatResolvesToANumberWithoutAUnitIsRefused() {
        runner.withBean(UnitlessPlaceholder.class).withPropertyValues("jobs.ttl=45")
            .run(failsWith(UnitlessPlaceholder.class.getName() + ".run(): attribute 'ttl' = '${jobs.ttl}' "
                    + "(resolved '45') has no unit"));
    }

    @Test
    void aBeanCallingItsOwnGuardedMethodStartsWithAWarningNamingTheCall(
            org.springframework.boot.test.system.CapturedOutput output) {
        runner.withBean(SelfCalling.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(output.getOut()).contains(SelfCalling.class.getName() + " calls its own @DistributedLock "
                    + "methods: generate(String) from nightly(). A call a bean makes on itself does not go through "
                    + "its proxy, so it takes no lock");
        });
    }

    @Test
    void reactiveResultsWithoutContextPropagationStartWithAWarningSayingHowToReadTheLeaseEverywhere(
            org.springframework.boot.test.system.CapturedOutput output) {
        runner.withClassLoader(new org.springframework.boot.test.context.FilteredClassLoader("io.micrometer.context"))
            .withBean(PublicReactive.class).run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(output.getOut()).contains("@DistributedLock methods with reactive results ("
                        + PublicReactive.class.getName() + ".mono()").contains("io.micrometer:context-propagation is "
                        + "not on the class path; add it and set spring.reactor.context-propagation=auto")
                    .doesNotContain(PublicReactive.class.getName() + ".future()");
            });
    }

    @Test
    void reactiveResultsWithContextPropagationStartWithoutThatWarning(
            org.springframework.boot.test.system.CapturedOutput output) {
        runner.withBean(Asynchronous.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(output.getOut()).doesNotContain("@DistributedLock methods with reactive results");
        });
    }

    @Test
    void inAspectJModeAClassWovenOnlyByAnotherAspectIsRefused() {
        runner.withPropertyValues("distributed-lock.mode=aspectj").withBean(WovenByAnotherAspect.class)
            .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                .isInstanceOf(InvalidLockDeclarationException.class)
                .hasMessageContaining("@DistributedLock on " + WovenByAnotherAspect.class.getName() + ".run(): "
                        + "distributed-lock.mode is aspectj, but the aspect of io.distlock:lock-aspectj is not woven "
                        + "into " + WovenByAnotherAspect.class.getName()));
    }

    @Test
    void inAspectJModeAClassTheAspectIsNotWovenIntoIsRefused() {
        runner.withPropertyValues("distributed-lock.mode=aspectj").withBean(SelfCalling.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                .isInstanceOf(InvalidLockDeclarationException.class)
                .hasMessageContaining("@DistributedLock on " + SelfCalling.class.getName() + ".generate(String): "
                        + "distributed-lock.mode is aspectj, but the aspect of io.distlock:lock-aspectj is not woven "
                        + "into " + SelfCalling.class.getName())
                .hasMessageContaining("io.distlock:lock-aspectj, whose aspect guards the methods, is not on the "
                        + "class path");
        });
    }

    @Test
    void asynchronousResultsThatCanBeGuardedStart() {
        runner.withBean(Asynchronous.class).run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void asynchronousResultsThatCannotBeGuardedAreRefusedNamingMethodAndType() {
        runner.withBean(Unguardable.class).run(context -> {
            assertThat(context).hasFailed();
            String method = "@DistributedLock on " + Unguardable.class.getName();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                .isInstanceOf(InvalidLockDeclarationException.class)
                .hasMessageContaining(method + ".future(): the method returns java.util.concurrent.Future, which "
                        + "cannot be guarded: a Future's completion cannot be seen without blocking a thread")
                .hasMessageContaining(method + ".ownFuture(): the method returns " + OwnFuture.class.getName()
                        + ", which cannot be guarded: the lock can only be held until a CompletableFuture completes")
                .hasMessageContaining(method + ".ownPublisher(): the method returns " + OwnPublisher.class.getName()
                        + ", which cannot be guarded: Spring's ReactiveAdapterRegistry adapts it only as a "
                        + "org.reactivestreams.Publisher")
                .hasMessageContaining(method + ".stream(): the method returns java.util.stream.Stream, which cannot "
                        + "be guarded: a Stream is consumed after the method returned, outside the lock");
        });
    }

    @Test
    void skipOnAResultThatCannotCompleteEmptyIsRefusedNamingTheType() {
        runner.withBean(SkippedSingle.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                .isInstanceOf(InvalidLockDeclarationException.class)
                .hasMessageContaining("@DistributedLock on " + SkippedSingle.class.getName() + ".single(): attribute "
                        + "'onLocked' = 'SKIP' completes a skipped call (or one whose lease was lost) empty, but the "
                        + "method returns io.reactivex.rxjava3.core.Single, which cannot complete empty");
        });
    }

    @Test
    void zeroNeedsNoUnit() {
        runner.withBean(ZeroMinHold.class).run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void ttlAboveTheMaximumIsRejected() {
        runner.withBean(TtlAboveMaximum.class).run(failsWith(TtlAboveMaximum.class.getName()
                + ".run(): attribute 'ttl' = 'P2D' must be at most PT24H (distributed-lock.max-ttl)"));
    }

    @Test
    void defaultTtlAboveTheMaximumIsRejected() {
        runner.withBean(Valid.class).withPropertyValues("jobs.ttl=PT1M", "distributed-lock.default-ttl=PT2H",
                "distributed-lock.max-ttl=PT1H")
            .run(context -> {
                assertThat(context).hasFailed();
                assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("distributed-lock.default-ttl must be at most PT1H, got PT2H");
            });
    }

    @Test
    void unparseableMinHoldIsRejected() {
        runner.withBean(BadMinHold.class).run(failsWith(BadMinHold.class.getName()
                + ".run(): attribute 'minHold' = 'soon' is not a duration"));
    }

    @Test
    void negativeMaxHoldIsRejected() {
        runner.withBean(NegativeMaxHold.class).run(failsWith(NegativeMaxHold.class.getName()
                + ".run(): attribute 'maxHold' = '-PT1S' must be at least PT0.001S"));
    }

    @Test
    void minHoldLongerThanMaxHoldIsRejected() {
        runner.withBean(MinHoldAboveMaxHold.class).run(failsWith(MinHoldAboveMaxHold.class.getName()
                + ".run(): attribute 'minHold' = 'PT2H' is longer than maxHold (PT1H)"));
    }

    @Test
    void unparseableSpelIsRejected() {
        runner.withBean(BadSpel.class).run(failsWith(BadSpel.class.getName()
                + ".run(String): attribute 'resource' = 'job:#{#id +}' is not a valid SpEL template"));
    }

    @Test
    void referenceToAMissingParameterIsRejected() {
        runner.withBean(UnknownParameter.class).run(failsWith(UnknownParameter.class.getName()
                + ".run(String): attribute 'resource' = 'report:#{#month}' refers to #month, but the method has no "
                + "such parameter; it has #id"));
    }

    @Test
    void positionBeyondTheParametersIsRejected() {
        runner.withBean(PositionOutOfRange.class).run(failsWith(PositionOutOfRange.class.getName()
                + ".run(String): attribute 'resource' = 'job:#{#p1}' refers to #p1, but the method takes 1 parameter"));
    }

    @Test
    void referenceToAMissingBeanIsRejected() {
        runner.withBean(UnknownBean.class).run(failsWith(UnknownBean.class.getName()
                + ".run(): attribute 'resource' = 'job:#{@noSuchBean.name}' refers to bean @noSuchBean, but there is "
                + "no such bean"));
    }

    @Test
    void unresolvablePlaceholderIsRejected() {
        runner.withBean(UnresolvablePlaceholder.class).run(failsWith(UnresolvablePlaceholder.class.getName()
                + ".run(): attribute 'ttl' = '${no.such.ttl}' has a placeholder that cannot be resolved"));
    }

    @Test
    void skipOnAPrimitiveReturnTypeIsRejected() {
        runner.withBean(SkipReturningInt.class).run(failsWith(SkipReturningInt.class.getName()
                + ".count(): attribute 'onLocked' = 'SKIP' returns null for a skipped call, but the method returns "
                + "int"));
    }

    @Test
    void waitTimeoutWithoutWaitIsRejected() {
        runner.withBean(WaitTimeoutWithoutWait.class).run(failsWith(WaitTimeoutWithoutWait.class.getName()
                + ".run(): attribute 'waitTimeout' = 'PT5S' only applies to onLocked = WAIT, but onLocked is THROW"));
    }

    @Test
    void blankLiteralResourceIsRejected() {
        runner.withBean(BlankResource.class).run(failsWith(BlankResource.class.getName()
                + ".run(): attribute 'resource' = ' ' is not a valid resource name: resource must not be blank"));
    }

    @Test
    void privateMethodIsRejectedBecauseNoProxyCanInterceptIt() {
        runner.withBean(PrivateMethod.class).run(failsWith(PrivateMethod.class.getName()
                + ".run(): the method is private, so Spring AOP proxies cannot intercept it"));
    }

    @Test
    void finalMethodOfAClassProxyIsRejected() {
        runner.withBean(FinalMethod.class).run(failsWith(FinalMethod.class.getName()
                + ".run(): the method is final, so Spring AOP proxies cannot intercept it"));
    }

    @Test
    void beanThatWasNotProxiedIsRejected() {
        runner.withInitializer(context -> context.getBeanFactory().registerSingleton("unproxied", new Valid()))
            .withPropertyValues("jobs.ttl=PT1M")
            .run(failsWith("Bean 'unproxied' (" + Valid.class.getName() + ") has @DistributedLock methods but is not "
                    + "proxied by the distributed-lock advisor"));
    }

    @Test
    void maxHoldBeyondTenYearsIsRejected() {
        runner.withBean(MaxHoldBeyondTenYears.class).run(failsWith(MaxHoldBeyondTenYears.class.getName()
                + ".run(): attribute 'maxHold' = 'PT2562048H' must be at most PT87600H (10 years"));
    }

    @Test
    void minHoldAndWaitTimeoutBeyondTheirBoundsAreRejected() {
        runner.withBean(HugeMinHoldAndWait.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                .isInstanceOf(InvalidLockDeclarationException.class)
                .hasMessageContaining(HugeMinHoldAndWait.class.getName()
                        + ".hold(): attribute 'minHold' = 'PT2562048H' must be at most PT24H")
                .hasMessageContaining(HugeMinHoldAndWait.class.getName()
                        + ".await(): attribute 'waitTimeout' = 'PT2562048H' must be at most PT24H");
        });
    }

    @Test
    void maxHoldPropertyBeyondTenYearsIsRejected() {
        runner.withBean(Valid.class).withPropertyValues("jobs.ttl=PT1M", "distributed-lock.max-hold=PT2562048H")
            .run(context -> {
                assertThat(context).hasFailed();
                assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("distributed-lock.max-hold must be at most PT87600H, got PT2562048H");
            });
    }

    @Test
    void maxTtlPropertyBeyondTenYearsIsRejected() {
        runner.withBean(Valid.class).withPropertyValues("jobs.ttl=PT1M", "distributed-lock.max-ttl=P4000D")
            .run(context -> {
                assertThat(context).hasFailed();
                assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("distributed-lock.max-ttl must be at most PT87600H, got PT96000H");
            });
    }

    @Test
    void templateReferringToTheTargetBeanIsRejected() {
        runner.withBean(RefersToTarget.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                .isInstanceOf(InvalidLockDeclarationException.class)
                .hasMessageContaining(RefersToTarget.class.getName() + ".byRoot(): attribute 'resource' = "
                        + "'job:#{#root.target}' refers to the target bean in #{#root.target}: its text differs per "
                        + "instance and per JVM, so the lock would exclude nothing")
                .hasMessageContaining(RefersToTarget.class.getName() + ".byProperty(): attribute 'resource' = "
                        + "'job:#{target.hashCode()}' refers to the target bean in #{target.hashCode()}")
                .hasMessageContaining(RefersToTarget.class.getName() + ".byGetter(): attribute 'resource' = "
                        + "'job:#{#this.getTarget()}' refers to the target bean");
        });
    }

    @Test
    void parameterWithoutItsOwnToStringIsRejected() {
        runner.withBean(RendersPlainObject.class).run(failsWith(RendersPlainObject.class.getName()
                + ".run(Customer): attribute 'resource' = 'order:#{#customer}' renders #{#customer}, and parameter "
                + "#customer (" + Customer.class.getName() + ") is a " + Customer.class.getName() + ", which has no "
                + "toString() of its own: Object's identity form (Customer@1b6d3586) differs per instance and per "
                + "JVM, so the lock would exclude nothing; render a stable property such as #{#customer.id}, or "
                + "give Customer a toString()"));
    }

    @Test
    void collectionOfValuesWithoutToStringIsRejected() {
        runner.withBean(RendersPlainObjects.class).run(failsWith(RendersPlainObjects.class.getName()
                + ".run(List): attribute 'resource' = 'orders:#{#p0}' renders #{#p0}, and parameter #customers "
                + "(java.util.List<" + Customer.class.getName() + ">) holds a " + Customer.class.getName()));
    }

    @Test
    void allArgumentsIncludingOneWithoutToStringAreRejected() {
        runner.withBean(RendersAllArguments.class).run(failsWith(RendersAllArguments.class.getName()
                + ".run(String, Customer[]): attribute 'resource' = 'job:#{#root.args}' renders #{#root.args}, and "
                + "parameter #customers (" + Customer.class.getName() + "[]) holds a " + Customer.class.getName()));
    }

    @Test
    void concatenatedParameterWithoutToStringIsRejected() {
        runner.withBean(ConcatenatesPlainObject.class).run(failsWith(ConcatenatesPlainObject.class.getName()
                + ".run(Customer): attribute 'resource' = 'order:#{'x-' + #a0}' renders #{'x-' + #a0}, and "
                + "parameter #customer"));
    }

    @Test
    void renderingTheExpressionRootIsRejected() {
        runner.withBean(RendersRoot.class).run(failsWith(RendersRoot.class.getName()
                + ".run(): attribute 'resource' = 'job:#{#root}' renders #{#root}, the expression root object, which "
                + "has no stable text"));
    }

    @Test
    void valuesWithStableTextStart() {
        runner.withBean(StableTexts.class).run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void everyProblemIsListedAtOnce() {
        runner.withBean(BadTtl.class).withBean(SkipReturningInt.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                .isInstanceOf(InvalidLockDeclarationException.class)
                .hasMessageStartingWith("2 invalid lock declarations (@DistributedLock, @OncePerSlot):")
                .hasMessageContaining("BadTtl.run(String): attribute 'ttl'")
                .hasMessageContaining("SkipReturningInt.count(): attribute 'onLocked'");
        });
    }

    private static ContextConsumer<AssertableApplicationContext> failsWith(String message) {
        return context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                .isInstanceOf(InvalidLockDeclarationException.class)
                .hasMessageContaining(message);
        };
    }

    public static class Valid {

        @DistributedLock(resource = "valid:#{#p0}:#{#id}:#{#root.methodName}", ttl = "${jobs.ttl}")
        public void withParameter(String id) {
        }

        @DistributedLock(resource = "valid:plain")
        public void plain() {
        }

        @DistributedLock(resource = "valid:optional", onLocked = OnLocked.SKIP)
        public Optional<String> optional() {
            return Optional.of("ran");
        }

        @DistributedLock(resource = "valid:boxed", ttl = "10s", minHold = "1s", maxHold = "PT1M")
        public Integer boxed() {
            return 1;
        }

        @DistributedLock(resource = "valid:primitive", onLocked = OnLocked.WAIT, waitTimeout = "PT1S")
        public long primitiveWithWait() {
            return 1;
        }
    }

    public static class MaxHoldBeyondTenYears {

        @DistributedLock(resource = "job", maxHold = "PT2562048H")
        public void run() {
        }
    }

    public static class HugeMinHoldAndWait {

        @DistributedLock(resource = "job", minHold = "PT2562048H", maxHold = "PT2562048H")
        public void hold() {
        }

        @DistributedLock(resource = "job", onLocked = OnLocked.WAIT, waitTimeout = "PT2562048H")
        public void await() {
        }
    }

    /** A class without a toString() of its own. */
    public static class Customer {

        public String getId() {
            return "c-1";
        }
    }

    /** A value with a toString() of its own. */
    public record OrderId(String value) {
    }

    public enum Region {
        EU
    }

    public static class RefersToTarget {

        @DistributedLock(resource = "job:#{#root.target}")
        public void byRoot() {
        }

        @DistributedLock(resource = "job:#{target.hashCode()}")
        public void byProperty() {
        }

        @DistributedLock(resource = "job:#{#this.getTarget()}")
        public void byGetter() {
        }
    }

    public static class RendersPlainObject {

        @DistributedLock(resource = "order:#{#customer}")
        public void run(Customer customer) {
        }
    }

    public static class RendersPlainObjects {

        @DistributedLock(resource = "orders:#{#p0}")
        public void run(List<Customer> customers) {
        }
    }

    public static class RendersAllArguments {

        @DistributedLock(resource = "job:#{#root.args}")
        public void run(String id, Customer[] customers) {
        }
    }

    public static class ConcatenatesPlainObject {

        @DistributedLock(resource = "order:#{'x-' + #a0}")
        public void run(Customer customer) {
        }
    }

    public static class RendersRoot {

        @DistributedLock(resource = "job:#{#root}")
        public void run() {
        }
    }

    /** Every kind of value the start-up check lets through: its own toString(), or one decided per call. */
    public static class StableTexts {

        @DistributedLock(resource = "job:#{#id}:#{#region}:#{#text}:#{#count}:#{#number}:#{#month}:#{#day}")
        public void values(OrderId id, Region region, String text, Integer count, long number, YearMonth month,
                LocalDate day) {
        }

        @DistributedLock(resource = "job:#{#root.args}:#{#p0.length}:#{#root.targetClass}:#{#root.method}")
        public void containers(String[] names, List<OrderId> ids, Set<Region> regions, Map<String, Integer> counts,
                int[] numbers) {
        }

        @DistributedLock(resource = "job:#{#customer.id}:#{#key}:#{#text}:#{#keys}")
        public void propertiesAndOpenTypes(Customer customer, Object key, CharSequence text, List<?> keys) {
        }
    }

    public static class BadTtl {

        @DistributedLock(resource = "job:#{#id}", ttl = "PT5X")
        public void run(String id) {
        }
    }

    public static class BareNumbers {

        @DistributedLock(resource = "bare", ttl = "30", minHold = "5", maxHold = "3600")
        public void run() {
        }

        @DistributedLock(resource = "bare-wait", onLocked = OnLocked.WAIT, waitTimeout = "500")
        public void await() {
        }
    }

    public static class UnitlessPlaceholder {

        @DistributedLock(resource = "job", ttl = "${jobs.ttl}")
        public void run() {
        }
    }

    public static class ZeroMinHold {

        @DistributedLock(resource = "job", minHold = "0")
        public void run() {
        }
    }

    public static class TtlAboveMaximum {

        @DistributedLock(resource = "job", ttl = "P2D")
        public void run() {
        }
    }

    public static class BadMinHold {

        @DistributedLock(resource = "job", minHold = "soon")
        public void run() {
        }
    }

    public static class NegativeMaxHold {

        @DistributedLock(resource = "job", maxHold = "-PT1S")
        public void run() {
        }
    }

    public static class MinHoldAboveMaxHold {

        @DistributedLock(resource = "job", minHold = "PT2H", maxHold = "PT1H")
        public void run() {
        }
    }

    public static class BadSpel {

        @DistributedLock(resource = "job:#{#id +}")
        public void run(String id) {
        }
    }

    public static class UnknownParameter {

        @DistributedLock(resource = "report:#{#month}")
        public void run(String id) {
        }
    }

    public static class PositionOutOfRange {

        @DistributedLock(resource = "job:#{#p1}")
        public void run(String id) {
        }
    }

    public static class UnknownBean {

        @DistributedLock(resource = "job:#{@noSuchBean.name}")
        public void run() {
        }
    }

    public static class UnresolvablePlaceholder {

        @DistributedLock(resource = "job", ttl = "${no.such.ttl}")
        public void run() {
        }
    }

    public static class SkipReturningInt {

        @DistributedLock(resource = "job")
        public int count() {
            return 1;
        }
    }

    public static class WaitTimeoutWithoutWait {

        @DistributedLock(resource = "job", onLocked = OnLocked.THROW, waitTimeout = "PT5S")
        public void run() {
        }
    }

    public static class BlankResource {

        @DistributedLock(resource = " ")
        public void run() {
        }
    }

    public static class PrivateMethod {

        @DistributedLock(resource = "job")
        private void run() {
        }
    }

    public static class FinalMethod {

        @DistributedLock(resource = "job")
        public final void run() {
        }
    }

    /** Calls its own guarded method, which the proxy does not see. */
    static class SelfCalling {

        @DistributedLock(resource = "report:#{#month}")
        public String generate(String month) {
            return month;
        }

        public String nightly() {
            return generate("2026-05");
        }
    }

    /** Asynchronous results that are guarded until they complete. */
    static class Asynchronous {

        @DistributedLock(resource = "future")
        public java.util.concurrent.CompletableFuture<String> future() {
            return java.util.concurrent.CompletableFuture.completedFuture("done");
        }

        @DistributedLock(resource = "stage")
        public java.util.concurrent.CompletionStage<String> stage() {
            return java.util.concurrent.CompletableFuture.completedFuture("done");
        }

        @DistributedLock(resource = "mono")
        public reactor.core.publisher.Mono<String> mono() {
            return reactor.core.publisher.Mono.just("done");
        }

        @DistributedLock(resource = "flux")
        public reactor.core.publisher.Flux<String> flux() {
            return reactor.core.publisher.Flux.just("done");
        }

        @DistributedLock(resource = "publisher")
        public org.reactivestreams.Publisher<String> publisher() {
            return reactor.core.publisher.Flux.just("done");
        }

        @DistributedLock(resource = "maybe")
        public io.reactivex.rxjava3.core.Maybe<String> maybe() {
            return io.reactivex.rxjava3.core.Maybe.just("done");
        }

        @DistributedLock(resource = "single", onLocked = io.distlock.spring.OnLocked.THROW)
        public io.reactivex.rxjava3.core.Single<String> single() {
            return io.reactivex.rxjava3.core.Single.just("done");
        }
    }

    /** An RxJava Single, which a skipped call could only fail, declared with SKIP. */
    static class SkippedSingle {

        @DistributedLock(resource = "single")
        public io.reactivex.rxjava3.core.Single<String> single() {
            return io.reactivex.rxjava3.core.Single.just("done");
        }
    }

    /** Asynchronous results whose work could not be held under the lock. */
    static class Unguardable {

        @DistributedLock(resource = "future")
        public java.util.concurrent.Future<String> future() {
            return java.util.concurrent.CompletableFuture.completedFuture("done");
        }

        @DistributedLock(resource = "own")
        public OwnFuture ownFuture() {
            return new OwnFuture();
        }

        @DistributedLock(resource = "publisher")
        public OwnPublisher ownPublisher() {
            return new OwnPublisher();
        }

        @DistributedLock(resource = "stream")
        public java.util.stream.Stream<String> stream() {
            return java.util.stream.Stream.of("done");
        }
    }

    /**
     * What another aspect's around advice leaves in a class it wove (the method's body under ajc's name for it), but
     * without the distributed-lock aspect.
     */
    static class WovenByAnotherAspect {

        @DistributedLock(resource = "woven-elsewhere")
        public void run() {
            run_aroundBody0();
        }

        private static void run_aroundBody0() {
        }
    }

    /** A reactive and a future result, in a public class a proxy can subclass from a filtering class loader. */
    public static class PublicReactive {

        @DistributedLock(resource = "public-mono")
        public reactor.core.publisher.Mono<String> mono() {
            return reactor.core.publisher.Mono.just("done");
        }

        @DistributedLock(resource = "public-future")
        public java.util.concurrent.CompletableFuture<String> future() {
            return java.util.concurrent.CompletableFuture.completedFuture("done");
        }
    }

    /** A publisher type of its own, which the aspect cannot return in place of the method's. */
    static class OwnPublisher implements org.reactivestreams.Publisher<String> {

        @Override
        public void subscribe(org.reactivestreams.Subscriber<? super String> subscriber) {
            reactor.core.publisher.Flux.just("done").subscribe(subscriber);
        }
    }

    /** A future type of its own, which the aspect cannot return in place of the method's. */
    static class OwnFuture extends java.util.concurrent.CompletableFuture<String> {
    }
}
