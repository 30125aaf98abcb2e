package io.distlock.spring.properties;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.OncePerSlot;
import io.distlock.spring.support.AdvisedMethods;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * With {@code distributed-lock.enabled=false}, warns once all singletons exist that the context's
 * {@link DistributedLock} and {@link OncePerSlot} methods run without their locks, naming how many there are.
 */
final class UnguardedMethodsWarning implements SmartInitializingSingleton {

    private static final Logger logger = LoggerFactory.getLogger(UnguardedMethodsWarning.class);

    private static final int NAMED = 5;

    private final ConfigurableListableBeanFactory beanFactory;

    UnguardedMethodsWarning(ConfigurableListableBeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void afterSingletonsInstantiated() {
        logger.warn(message(guardedMethods()));
    }

    static String message(List<String> methods) {
        if (methods.isEmpty()) {
            return "distributed-lock.enabled=false: distributed locks are off; no @DistributedLock or @OncePerSlot "
                    + "method was found among the beans";
        }
        String named = String.join(", ", methods.subList(0, Math.min(NAMED, methods.size())))
                + (methods.size() > NAMED ? " and " + (methods.size() - NAMED) + " more" : "");
        return "distributed-lock.enabled=false: " + methods.size() + " guarded "
                + (methods.size() == 1 ? "method runs" : "methods run") + " without a distributed lock, on every "
                + "replica at once: " + named;
    }

    /** Each guarded method of the beans, as {@code com.example.Jobs.run() (@DistributedLock)}. */
    List<String> guardedMethods() {
        List<String> methods = new ArrayList<>();
        Set<Class<?>> seen = new HashSet<>();
        for (Iterator<String> names = beanFactory.getBeanNamesIterator(); names.hasNext();) {
            Class<?> type = AdvisedMethods.beanType(beanFactory, names.next());
            if (type == null || !seen.add(type)) {
                continue;
            }
            if (AnnotationUtils.isCandidateClass(type, DistributedLock.class)
                    || AnnotationUtils.isCandidateClass(type, OncePerSlot.class)) {
                MethodIntrospector.MetadataLookup<String> lookup = UnguardedMethodsWarning::guard;
                MethodIntrospector.selectMethods(type, lookup)
                    .forEach((method, guard) -> methods.add(type.getName() + "." + method.getName() + "() (" + guard
                            + ")"));
            }
        }
        methods.sort(null);
        return methods;
    }

    private static @Nullable String guard(Method method) {
        if (AnnotatedElementUtils.hasAnnotation(method, OncePerSlot.class)) {
            return "@OncePerSlot";
        }
        return AnnotatedElementUtils.hasAnnotation(method, DistributedLock.class) ? "@DistributedLock" : null;
    }
}
