package io.distlock.spring.aop;

import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.distlock.spring.support.AdvisedMethods;
import io.distlock.spring.support.AsynchronousResult;
import io.distlock.spring.support.LockAdviceMode;
import io.distlock.spring.support.LockDeclarationCheck;
import io.distlock.spring.support.LockDeclarationListener;
import io.distlock.spring.support.SelfInvocations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Checks every {@link io.distlock.spring.DistributedLock} declaration of the context's beans once all singletons
 * exist, before scheduled jobs start ({@link io.distlock.spring.support.LockDeclarationChecks}): a wrong declaration,
 * or a singleton with guarded methods that was not proxied, fails the start with an
 * {@link io.distlock.spring.support.InvalidLockDeclarationException} listing every problem of the context; once all
 * are valid, the {@link LockDeclarationListener}s are told of every declared lock.
 */
final class LockedMethodValidator implements LockDeclarationCheck {

    private static final Logger logger = LoggerFactory.getLogger(LockedMethodValidator.class);

    private final ConfigurableListableBeanFactory beanFactory;

    private final LockedMethods lockedMethods;

    private final ObjectProvider<LockDeclarationListener> listeners;

    private final LockAdviceMode mode;

    /** The class of Micrometer's context propagation, which carries {@code CurrentLease} across threads. */
    private static final String CONTEXT_PROPAGATION = "io.micrometer.context.ContextRegistry";

    /**
     * Creates the validator.
     *
     * @param beanFactory the factory whose beans are checked
     * @param lockedMethods parses and caches the declarations
     * @param listeners told of every declared lock once all are valid
     * @param mode whether proxies or the woven aspect guard the methods
     */
    LockedMethodValidator(ConfigurableListableBeanFactory beanFactory, LockedMethods lockedMethods,
            ObjectProvider<LockDeclarationListener> listeners, LockAdviceMode mode) {
        this.beanFactory = beanFactory;
        this.lockedMethods = lockedMethods;
        this.listeners = listeners;
        this.mode = mode;
    }

    /** The classes of the beans with guarded methods, once {@link #problems()} looked. */
    private final Set<Class<?>> guardedClasses = new LinkedHashSet<>();

    @Override
    public List<String> problems() {
        guardedClasses.clear();
        Set<String> problems = new LinkedHashSet<>();
        Set<List<Object>> checked = new HashSet<>();
        for (Iterator<String> names = beanFactory.getBeanNamesIterator(); names.hasNext();) {
            String name = names.next();
            Object singleton = beanFactory.containsSingleton(name) ? beanFactory.getSingleton(name) : null;
            Class<?> targetClass = singleton != null ? AopProxyUtils.ultimateTargetClass(singleton)
                    : AdvisedMethods.beanType(beanFactory, name);
            if (targetClass == null || !lockedMethods.hasGuardedMethods(targetClass)) {
                continue;
            }
            boolean classProxy = AdvisedMethods.classProxy(beanFactory, name, singleton, targetClass);
            guardedClasses.add(targetClass);
            if (mode == LockAdviceMode.ASPECTJ) {
                if (checked.add(List.of(targetClass))) {
                    problems.addAll(lockedMethods.validateWoven(targetClass));
                }
                continue;
            }
            if (checked.add(List.of(targetClass, classProxy))) {
                problems.addAll(lockedMethods.validate(targetClass, classProxy));
            }
            if (singleton != null && !AdvisedMethods.isAdvisedBy(singleton, DistributedLockInterceptor.class)) {
                problems.add("Bean '" + name + "' (" + targetClass.getName() + ") has @DistributedLock methods but "
                        + "is not proxied by the distributed-lock advisor, so its locks would never be taken; it was "
                        + "probably created before the auto-proxy creator, for example as a dependency of a "
                        + "BeanPostProcessor");
            }
        }
        if (mode == LockAdviceMode.ASPECTJ && !guardedClasses.isEmpty()
                && !ClassUtils.isPresent(LockAdviceMode.ASPECT_CLASS, beanFactory.getBeanClassLoader())) {
            problems.add("distributed-lock.mode is aspectj, but io.distlock:lock-aspectj, whose aspect guards the "
                    + "methods, is not on the class path: add it, and weave it into the guarded classes");
        }
        return List.copyOf(problems);
    }

    @Override
    public void accepted() {
        Set<String> declared = lockedMethods.declaredNames();
        listeners.orderedStream().forEach(listener -> declared.forEach(listener::lockDeclared));
        warnWithoutContextPropagation();
        for (Class<?> guarded : mode == LockAdviceMode.PROXY ? guardedClasses : Set.<Class<?>>of()) {
            List<String> calls = SelfInvocations.find(guarded, LockedMethods.guardedMethodsOf(guarded));
            if (!calls.isEmpty()) {
                String warning = guarded.getName() + " calls its own @DistributedLock methods: " + String.join("; ",
                        calls) + ". A call a bean makes on itself does not go through its proxy, so it takes no lock "
                        + "and may run on every replica at once; call it through the proxy (from another bean, or an "
                        + "injected self-reference), or weave the aspect into the class (AspectJ mode)";
                warn(warning);
            }
        }
    }

    /**
     * Reactive work hops between threads, where {@code CurrentLease} finds the lease only through Micrometer's context
     * propagation: without it, the lease is bound only while the method builds its result.
     */
    private void warnWithoutContextPropagation() {
        if (ClassUtils.isPresent(CONTEXT_PROPAGATION, beanFactory.getBeanClassLoader())) {
            return;
        }
        List<String> reactive = lockedMethods.declarations().declared().stream()
                .filter(method -> method.asynchronous() != null
                        && method.asynchronous().kind() != AsynchronousResult.Kind.COMPLETION_STAGE)
                .map(LockedMethod::description).distinct().sorted().toList();
        if (!reactive.isEmpty()) {
            warn("@DistributedLock methods with reactive results (" + String.join(", ", reactive) + "): "
                    + "CurrentLease finds their lease only while each builds its result, not on the threads its "
                    + "work goes on, because io.micrometer:context-propagation is not on the class path; add it and "
                    + "set spring.reactor.context-propagation=auto, or read the lease from the Reactor context with "
                    + "LockContext.lease()");
        }
    }

    private void warn(String warning) {
        logger.warn(warning);
        listeners.orderedStream().forEach(listener -> listener.declarationWarning(warning));
    }
}
