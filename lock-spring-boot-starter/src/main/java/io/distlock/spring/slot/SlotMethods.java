package io.distlock.spring.slot;

import java.lang.reflect.Method;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TimeZone;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.distlock.core.LockArguments;
import io.distlock.core.LockRequest;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.OncePerSlot;
import io.distlock.spring.autoconfigure.DistributedLockProperties;
import io.distlock.spring.support.AdvisedMethods;
import io.distlock.spring.support.AsynchronousResult;
import io.distlock.spring.support.AsynchronousResults;
import io.distlock.spring.support.DeclaredAttributes;
import io.distlock.spring.support.DeclaredMethods;
import io.distlock.spring.support.InvalidLockDeclarationException;
import io.distlock.spring.support.LockAdviceMode;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.format.annotation.DurationFormat;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * The {@link OncePerSlot} declarations of a context, each parsed and checked once per method and target class.
 *
 * <p>One concept, hence its length: reading a declaration as Spring's scheduling reads its {@code @Scheduled} (cron,
 * zone, fixed rate and its unit, placeholders, several triggers, the scheduler named) and refusing, with the method
 * named, everything a slot cannot be kept for; each rule is a few lines, and splitting them would scatter one reading.
 */
final class SlotMethods {

    private final ConfigurableBeanFactory beanFactory;

    private final Supplier<DistributedLockProperties> properties;

    private final DeclaredMethods<SlotMethod> declarations = new DeclaredMethods<>(this::parse);

    /**
     * Creates the registry.
     *
     * @param beanFactory resolves placeholders
     * @param properties the defaults of declarations that set no {@code ttl} or {@code maxHold}, read on first use
     */
    SlotMethods(ConfigurableBeanFactory beanFactory, Supplier<DistributedLockProperties> properties) {
        this.beanFactory = beanFactory;
        this.properties = properties;
    }

    /**
     * The parsed declaration of a method, parsed on first use.
     *
     * @throws InvalidLockDeclarationException when the declaration is wrong
     */
    @Nullable SlotMethod find(Method method, Class<?> targetClass) {
        return declarations.find(method, targetClass);
    }

    /** @return the declarations, parsed on first use */
    DeclaredMethods<SlotMethod> declarations() {
        return declarations;
    }

    /**
     * Checks every {@link OncePerSlot} method of a class.
     *
     * @param targetClass the user class of a bean
     * @param classProxy whether the bean is a class-based (CGLIB) proxy, which cannot intercept final methods
     * @param schedulers tells whether a method's {@code @Scheduled(scheduler = …)} names a scheduler
     * @return one message per problem; empty when all declarations are valid
     */
    List<String> validate(Class<?> targetClass, boolean classProxy, SlotSchedulers schedulers,
            LockAdviceMode mode) {
        List<String> problems = new ArrayList<>();
        for (Method method : declared(targetClass)) {
            if (mode == LockAdviceMode.ASPECTJ && !java.lang.reflect.Modifier.isStatic(method.getModifiers())
                    && !AdvisedMethods.isWoven(method)) {
                problems.add("@OncePerSlot on " + targetClass.getName() + "." + method.getName() + "(): "
                        + "distributed-lock.mode is aspectj, but the aspect of io.distlock:lock-aspectj is not woven "
                        + "into " + method.getDeclaringClass().getName() + ", so it would run on every replica for "
                        + "every slot; weave it at compile time or at load time");
                continue;
            }
            String unreachable = mode == LockAdviceMode.ASPECTJ
                    ? (java.lang.reflect.Modifier.isStatic(method.getModifiers()) ? "static" : null)
                    : AdvisedMethods.unreachable(method, classProxy);
            if (unreachable != null) {
                problems.add("@OncePerSlot on " + targetClass.getName() + "." + method.getName() + "(): the method is "
                        + unreachable + ", so Spring AOP proxies cannot intercept it and it would run on every "
                        + "replica for every slot, unguarded; make it public and not " + unreachable
                        + (mode == LockAdviceMode.PROXY ? ", or weave the aspect into the class "
                                + "(distributed-lock.mode=aspectj)" : ""));
                continue;
            }
            try {
                SlotMethod slotMethod = find(method, targetClass);
                String scheduler = slotMethod != null ? schedulers.problem(slotMethod.scheduler()) : null;
                if (scheduler != null) {
                    problems.add("@OncePerSlot on " + slotMethod.description() + ": @Scheduled(scheduler = \""
                            + slotMethod.scheduler() + "\") cannot be used: " + scheduler + "; name a TaskScheduler "
                            + "or ScheduledExecutorService bean");
                }
            }
            catch (InvalidLockDeclarationException ex) {
                problems.addAll(ex.problems());
            }
        }
        return problems;
    }

    /**
     * The valid declarations of a class.
     *
     * @param targetClass the user class of a bean
     * @return its declarations that parse; the others are reported by {@link #validate}
     */
    List<SlotMethod> of(Class<?> targetClass) {
        List<SlotMethod> methods = new ArrayList<>();
        for (Method method : declared(targetClass)) {
            try {
                SlotMethod slotMethod = find(method, targetClass);
                if (slotMethod != null) {
                    methods.add(slotMethod);
                }
            }
            catch (InvalidLockDeclarationException invalid) {
                // Told by validate.
            }
        }
        return methods;
    }

    /**
     * The parsed declarations so far: every valid one once the context's beans were validated.
     *
     * @return the declarations, each method once
     */
    List<SlotMethod> declared() {
        return declarations.declared();
    }

    /** The job names of the declarations parsed so far: every valid one once the context's beans were validated. */
    Set<String> declaredJobs() {
        Set<String> jobs = new java.util.TreeSet<>();
        declarations.declared().forEach(method -> jobs.add(method.job()));
        return jobs;
    }

    boolean hasSlotMethods(Class<?> targetClass) {
        return !declared(targetClass).isEmpty();
    }

    private static Set<Method> declared(Class<?> targetClass) {
        if (!AnnotationUtils.isCandidateClass(targetClass, OncePerSlot.class)) {
            return Set.of();
        }
        return MethodIntrospector.selectMethods(targetClass,
                (MethodIntrospector.MetadataLookup<OncePerSlot>) method -> AnnotatedElementUtils
                        .findMergedAnnotation(method, OncePerSlot.class)).keySet();
    }

    private Optional<SlotMethod> parse(Method method, Class<?> beanClass) {
        // The class as written: a @Configuration class's CGLIB subclass names no job and overrides no declaration.
        Class<?> targetClass = ClassUtils.getUserClass(beanClass);
        Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
        OncePerSlot declaration = AnnotatedElementUtils.findMergedAnnotation(specific, OncePerSlot.class);
        if (declaration == null) {
            return Optional.empty();
        }
        String description = targetClass.getName() + "." + specific.getName() + "()";
        DeclaredAttributes problems = DeclaredAttributes.onMethod("@OncePerSlot", description,
                beanFactory::resolveEmbeddedValue);
        if (AnnotatedElementUtils.hasAnnotation(specific, DistributedLock.class)) {
            problems.add("the method is also @DistributedLock; @OncePerSlot takes the job's lock itself, "
                    + "so remove @DistributedLock");
        }
        SlotTrigger trigger = trigger(specific, problems);
        String job = resolve(problems, "job", declaration.job());
        if (job.isEmpty()) {
            job = targetClass.getName() + "." + specific.getName();
        }
        try {
            LockArguments.requireResource(job);
        }
        catch (IllegalArgumentException ex) {
            problems.add("job", declaration.job(), "is not a valid job name: " + ex.getMessage());
        }
        Duration ttl = duration(problems, "ttl", declaration.ttl(), properties.get().getDefaultTtl());
        Duration maxHold = duration(problems, "maxHold", declaration.maxHold(), properties.get().getMaxHold());
        Class<?> returnType = specific.getReturnType();
        AsynchronousResult asynchronous = AsynchronousResults.of(specific);
        if (asynchronous != null && asynchronous.kind() == AsynchronousResult.Kind.UNSUPPORTED) {
            problems.add("the method returns " + asynchronous.type() + ", which cannot be guarded: "
                    + asynchronous.unsupported());
        }
        else if (asynchronous != null && asynchronous.kind() == AsynchronousResult.Kind.COMPLETION_STAGE) {
            problems.add("the method returns " + asynchronous.type() + ": Spring's scheduler runs no "
                    + "future's work to its end (it refuses such @Scheduled methods), so the slot's run could not end "
                    + "with it; return a Mono or a Flux, which Spring's scheduler subscribes to, or make the method "
                    + "synchronous");
        }
        else if (asynchronous != null && !asynchronous.canCompleteEmpty()) {
            problems.add("the method returns " + asynchronous.type() + ", which cannot complete empty, but a slot "
                    + "that does not run here completes empty (Spring's scheduler would log it as an error); return "
                    + "a Mono, a Flux, or a type that can be empty");
        }
        if (returnType.isPrimitive() && returnType != void.class) {
            problems.add("the method returns " + returnType.getName() + ", but a slot that does not run "
                    + "here returns null; return void, a wrapper type or an Optional");
        }
        problems.throwIfAny();
        Scheduled scheduled = scheduled(specific);
        return Optional.of(new SlotMethod(specific, description, job, ttl, maxHold, declaration.onCrash(),
                declaration.onMissed(), trigger, scheduled != null ? scheduled.scheduler() : "", asynchronous));
    }

    /** The first of a method's {@code @Scheduled} annotations: all name one scheduler, or the start fails. */
    private static @Nullable Scheduled scheduled(Method method) {
        Set<Scheduled> all = AnnotatedElementUtils.getMergedRepeatableAnnotations(method, Scheduled.class);
        return all.isEmpty() ? null : all.iterator().next();
    }

    private @Nullable SlotTrigger trigger(Method method, DeclaredAttributes problems) {
        Set<Scheduled> all = AnnotatedElementUtils.getMergedRepeatableAnnotations(method, Scheduled.class);
        if (all.isEmpty()) {
            problems.add("the method is not @Scheduled; @OncePerSlot needs the trigger's slots, so add "
                    + "@Scheduled(cron = …) or @Scheduled(fixedRate = …), or use @DistributedLock");
            return null;
        }
        if (all.size() > 1) {
            if (all.stream().map(Scheduled::scheduler).distinct().count() > 1) {
                problems.add("the method's " + all.size() + " @Scheduled triggers name different schedulers, whose "
                        + "clocks would label one job's slots differently; give them one scheduler");
                return null;
            }
            List<SlotTrigger> triggers = new ArrayList<>();
            for (Scheduled scheduled : all) {
                SlotTrigger trigger = trigger(scheduled, problems);
                if (trigger != null) {
                    triggers.add(trigger);
                }
            }
            // Spring schedules no disabled cron: the others define the slots.
            return triggers.isEmpty() ? null : triggers.size() == 1 ? triggers.get(0) : new SlotTrigger.AnyOf(triggers);
        }
        return trigger(all.iterator().next(), problems);
    }

    private @Nullable SlotTrigger trigger(Scheduled scheduled, DeclaredAttributes problems) {
        String cron = resolve(problems, "@Scheduled cron", scheduled.cron());
        if (!cron.isEmpty()) {
            if (Scheduled.CRON_DISABLED.equals(cron)) {
                return null;
            }
            String zone = resolve(problems, "@Scheduled zone", scheduled.zone());
            ZoneId zoneId = zone(zone, problems);
            try {
                CronExpression expression = CronExpression.parse(cron);
                return zoneId != null ? new SlotTrigger.Cron(expression, cron, zoneId, !zone.isEmpty()) : null;
            }
            catch (RuntimeException ex) {
                problems.add("the @Scheduled cron '" + cron + "' does not parse: " + ex.getMessage());
                return null;
            }
        }
        Duration rate = rate(scheduled, problems);
        if (rate != null) {
            return new SlotTrigger.FixedRate(rate);
        }
        problems.add((scheduled.fixedDelay() >= 0 || !scheduled.fixedDelayString().isEmpty()
                ? "its @Scheduled trigger is a fixed delay, whose runs follow each other's end and define no slots"
                : "its @Scheduled trigger runs once (an initial delay alone) and defines no slots")
                + "; use cron or fixedRate");
        return null;
    }

    /**
     * The zone of a cron, read exactly as Spring's scheduling reads it for its {@code CronTrigger}: a declared zone
     * through {@link StringUtils#parseTimeZoneString} (old short IDs such as {@code PST}, and {@code GMT+1}, are
     * {@link TimeZone} IDs), none as the JVM's default {@link TimeZone}; a zone Spring refuses is refused with
     * Spring's reason.
     */
    private static @Nullable ZoneId zone(String zone, DeclaredAttributes problems) {
        if (zone.isEmpty()) {
            return TimeZone.getDefault().toZoneId();
        }
        try {
            return StringUtils.parseTimeZoneString(zone).toZoneId();
        }
        catch (IllegalArgumentException ex) {
            problems.add("the @Scheduled zone '" + zone + "' is refused by Spring's scheduling: " + ex.getMessage()
                    + "; use a region ID such as Europe/Berlin, or GMT+01:00");
            return null;
        }
    }

    /** The fixed rate, read as Spring's scheduling reads it ({@code 1s}, {@code PT1S}, or a number in its unit). */
    private @Nullable Duration rate(Scheduled scheduled, DeclaredAttributes problems) {
        TimeUnit unit = scheduled.timeUnit();
        if (scheduled.fixedRate() >= 0) {
            return wholeRate(Duration.of(scheduled.fixedRate(), unit.toChronoUnit()), problems);
        }
        String text = resolve(problems, "@Scheduled fixedRateString", scheduled.fixedRateString());
        if (text.isEmpty()) {
            return null;
        }
        try {
            return wholeRate(DurationFormatterUtils.detectAndParse(text,
                    DurationFormat.Unit.fromChronoUnit(unit.toChronoUnit())), problems);
        }
        catch (RuntimeException ex) {
            problems.add("the @Scheduled fixedRate '" + text + "' does not parse: " + ex.getMessage());
            return null;
        }
    }

    private static @Nullable Duration wholeRate(Duration rate, DeclaredAttributes problems) {
        if (rate.toMillis() < 1 || rate.getNano() % 1_000_000 != 0) {
            problems.add("the @Scheduled fixed rate " + rate + " must be a positive whole number of "
                    + "milliseconds to define slots");
            return null;
        }
        return rate;
    }

    /** A duration attribute, read and bounded as every declaration's; the fallback after a problem. */
    private static Duration duration(DeclaredAttributes problems, String attribute, String declared,
            Duration fallback) {
        Duration value = problems.duration(attribute, declared, fallback);
        value = problems.wholeMillis(attribute, declared, problems.within(attribute, declared, value,
                LockArguments.MIN_TTL, LockRequest.MAX_DURATION, null));
        return value != null ? value : fallback;
    }

    /** A text attribute with its placeholders resolved, stripped; empty when blank or after a problem. */
    private static String resolve(DeclaredAttributes problems, String attribute, String declared) {
        if (!StringUtils.hasText(declared)) {
            return "";
        }
        String resolved = problems.text(attribute, declared);
        return resolved != null ? resolved.strip() : "";
    }
}
