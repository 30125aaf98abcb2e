package io.distlock.spring.aop;

import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.distlock.spring.support.AdvisedMethods;
import io.distlock.spring.support.InvalidLockDeclarationException;
import io.distlock.spring.support.LockDeclarationListener;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Checks every {@link io.distlock.spring.DistributedLock} declaration of the context's beans once all singletons
 * exist, before scheduled jobs start: a wrong declaration, or a singleton with guarded methods that was not proxied,
 * fails the start with an {@link InvalidLockDeclarationException} listing every problem; once all are valid, the
 * {@link LockDeclarationListener}s are told of every declared lock.
 */
final class LockedMethodValidator implements SmartInitializingSingleton {

    private final ConfigurableListableBeanFactory beanFactory;

    private final LockedMethods lockedMethods;

    private final ObjectProvider<LockDeclarationListener> listeners;

    /**
     * Creates the validator.
     *
     * @param beanFactory the factory whose beans are checked
     * @param lockedMethods parses and caches the declarations
     * @param listeners told of every declared lock once all are valid
     */
    LockedMethodValidator(ConfigurableListableBeanFactory beanFactory, LockedMethods lockedMethods,
            ObjectProvider<LockDeclarationListener> listeners) {
        this.beanFactory = beanFactory;
        this.lockedMethods = lockedMethods;
        this.listeners = listeners;
    }

    @Override
    public void afterSingletonsInstantiated() {
        Set<String> problems = new LinkedHashSet<>();
        Set<List<Object>> checked = new HashSet<>();
        for (Iterator<String> names = beanFactory.getBeanNamesIterator(); names.hasNext();) {
            String name = names.next();
            Object singleton = beanFactory.containsSingleton(name) ? beanFactory.getSingleton(name) : null;
            Class<?> targetClass = singleton != null ? AopProxyUtils.ultimateTargetClass(singleton) : AdvisedMethods.beanType(beanFactory, name);
            if (targetClass == null || !lockedMethods.hasGuardedMethods(targetClass)) {
                continue;
            }
            boolean classProxy = singleton != null && AopUtils.isCglibProxy(singleton);
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
        if (!problems.isEmpty()) {
            throw new InvalidLockDeclarationException(List.copyOf(problems));
        }
        Set<String> declared = lockedMethods.declaredNames();
        listeners.orderedStream().forEach(listener -> declared.forEach(listener::lockDeclared));
    }
}
