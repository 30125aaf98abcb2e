package io.distlock.spring.slot;

import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import io.distlock.core.CrashPolicy;
import io.distlock.core.LockManager;
import io.distlock.core.SlotStore;
import io.distlock.spring.support.AdvisedMethods;
import io.distlock.spring.support.LockAdviceMode;
import io.distlock.spring.support.LockDeclarationCheck;
import io.distlock.spring.support.LockDeclarationListener;
import io.distlock.spring.support.SelfInvocations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Checks every {@link io.distlock.spring.OncePerSlot} declaration once all singletons exist, before scheduled jobs
 * start: a wrong declaration, a method a proxy cannot reach, a singleton that was not proxied, a scheduler name that
 * names no scheduler, or two methods sharing one job fails the start, all of them in one failure; once all are valid,
 * it warns of what is legal but hazardous (a cron without a zone, at least once on a one-thread scheduler) and tells
 * the {@link LockDeclarationListener}s of every declared job.
 */
final class OncePerSlotValidator implements LockDeclarationCheck {

    private static final Logger logger = LoggerFactory.getLogger(OncePerSlotValidator.class);

    private final ConfigurableListableBeanFactory beanFactory;

    private final SlotMethods slotMethods;

    private final SlotSchedulers schedulers;

    private final ObjectProvider<LockManager> lockManager;

    private final ObjectProvider<LockDeclarationListener> listeners;

    private final boolean eagerStartupCheck;

    private final LockAdviceMode mode;

    OncePerSlotValidator(ConfigurableListableBeanFactory beanFactory, SlotMethods slotMethods,
            SlotSchedulers schedulers, ObjectProvider<LockManager> lockManager,
            ObjectProvider<LockDeclarationListener> listeners, boolean eagerStartupCheck, LockAdviceMode mode) {
        this.beanFactory = beanFactory;
        this.slotMethods = slotMethods;
        this.schedulers = schedulers;
        this.lockManager = lockManager;
        this.listeners = listeners;
        this.eagerStartupCheck = eagerStartupCheck;
        this.mode = mode;
    }

    /** Whether the context has {@code @OncePerSlot} methods, once {@link #problems()} looked. */
    private boolean found;

    @Override
    public List<String> problems() {
        Set<String> problems = new LinkedHashSet<>();
        Set<List<Object>> checked = new java.util.HashSet<>();
        Map<String, Set<String>> beansByJob = new TreeMap<>();
        found = false;
        for (Iterator<String> names = beanFactory.getBeanNamesIterator(); names.hasNext();) {
            String name = names.next();
            if (org.springframework.aop.scope.ScopedProxyUtils.isScopedTarget(name)) {
                continue;
            }
            Object singleton = beanFactory.containsSingleton(name) ? beanFactory.getSingleton(name) : null;
            Class<?> targetClass = singleton != null ? AopProxyUtils.ultimateTargetClass(singleton)
                    : AdvisedMethods.beanType(beanFactory, name);
            if (targetClass == null || !slotMethods.hasSlotMethods(targetClass)) {
                continue;
            }
            found = true;
            boolean classProxy = AdvisedMethods.classProxy(beanFactory, name, singleton, targetClass);
            if (checked.add(List.of(targetClass, classProxy))) {
                problems.addAll(slotMethods.validate(targetClass, classProxy, schedulers, mode));
            }
            if (beanFactory.containsBeanDefinition(name) && !beanFactory.getBeanDefinition(name).isSingleton()) {
                problems.add("Bean '" + name + "' (" + targetClass.getName() + ") has @OncePerSlot methods but is not "
                        + "a singleton: every instance would fire for the same slots of one job, and only one of them "
                        + "would run each slot; declare it as a singleton");
            }
            for (SlotMethod method : slotMethods.of(targetClass)) {
                beansByJob.computeIfAbsent(method.job(), job -> new java.util.TreeSet<>()).add(name);
            }
            if (mode == LockAdviceMode.PROXY && singleton != null
                    && !AdvisedMethods.isAdvisedBy(singleton, OncePerSlotInterceptor.class)) {
                problems.add("Bean '" + name + "' (" + targetClass.getName() + ") has @OncePerSlot methods but is not "
                        + "proxied by the once-per-slot advisor, so they would run on every replica for every slot; "
                        + "it was probably created before the auto-proxy creator, for example as a dependency of a "
                        + "BeanPostProcessor");
            }
        }
        List<SlotMethod> declared = slotMethods.declared();
        problems.addAll(sharedJobs(declared));
        beansByJob.forEach((job, beans) -> {
            if (beans.size() > 1) {
                problems.add("@OncePerSlot job '" + job + "' belongs to " + beans.size() + " beans (" + String.join(", ",
                        beans) + "), each scheduling it: each slot would run for only one of them; give each bean a "
                        + "class of its own with its own job, or keep one bean");
            }
        });
        return List.copyOf(problems);
    }

    @Override
    public void accepted() {
        List<SlotMethod> declared = slotMethods.declared();
        warnOfHazards(declared);
        declared.stream().filter(method -> mode == LockAdviceMode.PROXY).collect(Collectors.groupingBy(method -> method.method().getDeclaringClass(),
                java.util.LinkedHashMap::new, Collectors.mapping(SlotMethod::method, Collectors.toList())))
            .forEach((type, methods) -> {
                List<String> calls = SelfInvocations.find(type, methods);
                if (!calls.isEmpty()) {
                    warn(type.getName() + " calls its own @OncePerSlot methods: " + String.join("; ", calls)
                            + ". A call a bean makes on itself does not go through its proxy, so it claims no slot and "
                            + "runs on every replica; call it through the proxy, or weave the aspect into the class "
                            + "(AspectJ mode)");
                }
            });
        if (found && eagerStartupCheck) {
            // Before the first slot fires: a store or a lock table that cannot keep slots fails the start.
            SlotStore.of(lockManager.getObject().repository()).verifySlots();
        }
        Set<String> jobs = slotMethods.declaredJobs();
        listeners.orderedStream().forEach(listener -> jobs.forEach(listener::slotJobDeclared));
    }

    /** Two different methods under one job name would claim each other's slots: each fires, only one runs. */
    private static List<String> sharedJobs(List<SlotMethod> declared) {
        Map<String, Set<String>> methodsByJob = new TreeMap<>();
        for (SlotMethod method : declared) {
            methodsByJob.computeIfAbsent(method.job(), job -> new java.util.TreeSet<>())
                    .add(method.method().getDeclaringClass().getName() + "." + method.method().getName() + "()");
        }
        return methodsByJob.entrySet().stream().filter(entry -> entry.getValue().size() > 1)
                .map(entry -> "@OncePerSlot job '" + entry.getKey() + "' is declared by " + entry.getValue().size()
                        + " methods (" + String.join(", ", entry.getValue()) + "): they would share one slot "
                        + "history, so each slot would run only one of them; give each method a job of its own")
                .toList();
    }

    private void warnOfHazards(List<SlotMethod> declared) {
        List<String> zoneless = declared.stream()
                .filter(method -> zoneless(method.trigger()))
                .map(SlotMethod::description).distinct().sorted().toList();
        if (!zoneless.isEmpty()) {
            warn("@OncePerSlot cron jobs without a zone follow this JVM's default zone (" + java.time.ZoneId
                    .systemDefault() + "): " + String.join(", ", zoneless) + ". Replicas whose default zones differ "
                    + "label their slots differently and may run a slot twice or not at all; set @Scheduled(zone = …)");
        }
        Map<String, List<String>> atLeastOnceBySingleThread = declared.stream()
                .filter(method -> method.onCrash() == CrashPolicy.AT_LEAST_ONCE)
                .filter(method -> schedulers.forQualifier(method.scheduler()).threads() == 1)
                .collect(Collectors.groupingBy(method -> schedulers.forQualifier(method.scheduler()).name(),
                        TreeMap::new, Collectors.mapping(SlotMethod::description, Collectors.toList())));
        atLeastOnceBySingleThread.forEach((scheduler, methods) -> warn("@OncePerSlot jobs that run at least once ("
                + String.join(", ", methods) + ") are on the scheduler '" + scheduler + "', which has one thread: a "
                + "crashed slot is run again on that thread, after every other job queued before it; give the "
                + "scheduler two threads or more (spring.task.scheduling.pool.size)"));
    }

    /** Whether a trigger has a cron without a declared zone. */
    private static boolean zoneless(@org.jspecify.annotations.Nullable SlotTrigger trigger) {
        if (trigger instanceof SlotTrigger.AnyOf any) {
            return any.triggers().stream().anyMatch(OncePerSlotValidator::zoneless);
        }
        return trigger instanceof SlotTrigger.Cron cron && !cron.zoneDeclared();
    }

    /** Logs a hazard at WARN and tells the {@link LockDeclarationListener}s. */
    private void warn(String warning) {
        logger.warn(warning);
        listeners.orderedStream().forEach(listener -> listener.declarationWarning(warning));
    }
}
