package io.distlock.spring.slot;

import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.distlock.core.LockManager;
import io.distlock.spring.aop.InvalidLockDeclarationException;
import io.distlock.spring.aop.LockDeclarationListener;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Checks every {@link io.distlock.spring.OncePerSlot} declaration once all singletons exist, before scheduled jobs
 * start: a wrong declaration fails the start, naming class, method and attribute; once all are valid, the
 * {@link LockDeclarationListener}s are told of every declared job.
 */
final class OncePerSlotValidator implements SmartInitializingSingleton {

    private final ConfigurableListableBeanFactory beanFactory;

    private final SlotMethods slotMethods;

    private final ObjectProvider<LockManager> lockManager;

    private final ObjectProvider<LockDeclarationListener> listeners;

    private final boolean eagerStartupCheck;

    OncePerSlotValidator(ConfigurableListableBeanFactory beanFactory, SlotMethods slotMethods,
            ObjectProvider<LockManager> lockManager, ObjectProvider<LockDeclarationListener> listeners,
            boolean eagerStartupCheck) {
        this.beanFactory = beanFactory;
        this.slotMethods = slotMethods;
        this.lockManager = lockManager;
        this.listeners = listeners;
        this.eagerStartupCheck = eagerStartupCheck;
    }

    @Override
    public void afterSingletonsInstantiated() {
        Set<String> problems = new LinkedHashSet<>();
        Set<Class<?>> checked = new java.util.HashSet<>();
        boolean found = false;
        for (Iterator<String> names = beanFactory.getBeanNamesIterator(); names.hasNext();) {
            Class<?> targetClass = type(names.next());
            if (targetClass != null && checked.add(targetClass) && slotMethods.hasSlotMethods(targetClass)) {
                found = true;
                problems.addAll(slotMethods.validate(targetClass));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidLockDeclarationException(List.copyOf(problems));
        }
        if (found && eagerStartupCheck) {
            // Before the first slot fires: a store or a lock table that cannot keep slots fails the start.
            lockManager.getObject().repository().verifySlots();
        }
        Set<String> jobs = slotMethods.declaredJobs();
        listeners.orderedStream().forEach(listener -> jobs.forEach(listener::slotJobDeclared));
    }

    private @Nullable Class<?> type(String name) {
        try {
            if (beanFactory.containsSingleton(name)) {
                return AopProxyUtils.ultimateTargetClass(beanFactory.getSingleton(name));
            }
            Class<?> type = beanFactory.getType(name, false);
            return type != null ? ClassUtils.getUserClass(type) : null;
        }
        catch (RuntimeException | LinkageError ex) {
            return null;
        }
    }
}
