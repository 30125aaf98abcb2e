package io.distlock.spring.slot;

import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.distlock.spring.aop.InvalidLockDeclarationException;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Checks every {@link io.distlock.spring.OncePerSlot} declaration once all singletons exist, before scheduled jobs
 * start: a wrong declaration fails the start, naming class, method and attribute.
 */
final class OncePerSlotValidator implements SmartInitializingSingleton {

    private final ConfigurableListableBeanFactory beanFactory;

    private final SlotMethods slotMethods;

    OncePerSlotValidator(ConfigurableListableBeanFactory beanFactory, SlotMethods slotMethods) {
        this.beanFactory = beanFactory;
        this.slotMethods = slotMethods;
    }

    @Override
    public void afterSingletonsInstantiated() {
        Set<String> problems = new LinkedHashSet<>();
        Set<Class<?>> checked = new java.util.HashSet<>();
        for (Iterator<String> names = beanFactory.getBeanNamesIterator(); names.hasNext();) {
            Class<?> targetClass = type(names.next());
            if (targetClass != null && checked.add(targetClass) && slotMethods.hasSlotMethods(targetClass)) {
                problems.addAll(slotMethods.validate(targetClass));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidLockDeclarationException(List.copyOf(problems));
        }
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
