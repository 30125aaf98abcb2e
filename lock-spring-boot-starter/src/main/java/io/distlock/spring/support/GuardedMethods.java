package io.distlock.spring.support;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.OncePerSlot;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * The {@link DistributedLock} and {@link OncePerSlot} methods of a context's beans, named for a start-up message: the
 * ones that would run unguarded when locks are off or no store is there.
 */
public final class GuardedMethods {

    private static final int NAMED = 5;

    private GuardedMethods() {
    }

    /**
     * Each guarded method of the beans, sorted, as {@code com.example.Jobs.run() (@DistributedLock)}.
     *
     * @param beanFactory the factory whose bean types are looked at
     * @return the methods, empty when there is none
     */
    public static List<String> of(ConfigurableListableBeanFactory beanFactory) {
        List<String> methods = new ArrayList<>();
        Set<Class<?>> seen = new HashSet<>();
        for (Iterator<String> names = beanFactory.getBeanNamesIterator(); names.hasNext();) {
            Class<?> type = AdvisedMethods.beanType(beanFactory, names.next());
            if (type == null || !seen.add(type)) {
                continue;
            }
            if (AnnotationUtils.isCandidateClass(type, DistributedLock.class)
                    || AnnotationUtils.isCandidateClass(type, OncePerSlot.class)) {
                MethodIntrospector.MetadataLookup<String> lookup = GuardedMethods::guard;
                MethodIntrospector.selectMethods(type, lookup)
                    .forEach((method, guard) -> methods.add(type.getName() + "." + method.getName() + "() (" + guard
                            + ")"));
            }
        }
        methods.sort(null);
        return methods;
    }

    /**
     * The first few methods and how many more: {@code a, b, c, d, e and 2 more}.
     *
     * @param methods the methods, not empty
     * @return the list for a message
     */
    public static String named(List<String> methods) {
        return String.join(", ", methods.subList(0, Math.min(NAMED, methods.size())))
                + (methods.size() > NAMED ? " and " + (methods.size() - NAMED) + " more" : "");
    }

    private static @Nullable String guard(Method method) {
        if (AnnotatedElementUtils.hasAnnotation(method, OncePerSlot.class)) {
            return "@OncePerSlot";
        }
        return AnnotatedElementUtils.hasAnnotation(method, DistributedLock.class) ? "@DistributedLock" : null;
    }
}
