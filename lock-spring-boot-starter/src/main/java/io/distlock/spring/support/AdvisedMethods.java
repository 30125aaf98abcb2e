package io.distlock.spring.support;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

import org.aopalliance.aop.Advice;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Whether an annotated method can be guarded by a Spring AOP proxy at all, and whether a bean was proxied with an
 * aspect's advice: a method the proxy cannot reach runs unguarded on every replica, so the aspects refuse it at
 * start-up.
 */
public final class AdvisedMethods {

    private static final Logger logger = LoggerFactory.getLogger(AdvisedMethods.class);

    private AdvisedMethods() {
    }

    /**
     * Why a proxy cannot intercept a method, if it cannot.
     *
     * @param method the annotated method
     * @param classProxy whether the bean is a class-based (CGLIB) proxy, whose subclass cannot override final methods
     * @return {@code "private"}, {@code "static"} or {@code "final"}, or {@code null} when a proxy reaches it
     */
    public static @Nullable String unreachable(Method method, boolean classProxy) {
        int modifiers = method.getModifiers();
        if (Modifier.isPrivate(modifiers)) {
            return "private";
        }
        if (Modifier.isStatic(modifiers)) {
            return "static";
        }
        if (classProxy && Modifier.isFinal(modifiers)) {
            return "final";
        }
        return null;
    }

    /**
     * The user class of a bean as its definition says, without creating it: what the start-up checks read the
     * declarations of a bean not created yet from.
     *
     * @param beanFactory the factory
     * @param name the bean's name
     * @return the class, or {@code null} when it cannot be determined (told at DEBUG)
     */
    public static @Nullable Class<?> beanType(ConfigurableListableBeanFactory beanFactory, String name) {
        try {
            Class<?> type = beanFactory.getType(name, false);
            return type != null ? ClassUtils.getUserClass(type) : null;
        }
        catch (RuntimeException | LinkageError ex) {
            logger.debug("Cannot determine the type of bean '{}'; its lock declarations are not checked", name, ex);
            return null;
        }
    }

    /**
     * Whether AspectJ wove around advice into a method: its class then has the method's body under ajc's name for
     * it, {@code <method>_aroundBody<n>}, which compile-time and load-time weaving both give it.
     *
     * @param method the annotated method
     * @return {@code true} when the method's execution runs an aspect
     */
    public static boolean isWoven(Method method) {
        String body = method.getName() + "_aroundBody";
        for (Method declared : method.getDeclaringClass().getDeclaredMethods()) {
            if (declared.getName().startsWith(body)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a bean is a proxy carrying an advice of the given type.
     *
     * @param bean the bean as the context holds it
     * @param adviceType the aspect's interceptor type
     * @return {@code true} when one of the proxy's advisors gives such an advice
     */
    public static boolean isAdvisedBy(Object bean, Class<? extends Advice> adviceType) {
        if (!(bean instanceof Advised advised)) {
            return false;
        }
        for (Advisor advisor : advised.getAdvisors()) {
            if (adviceType.isInstance(advisor.getAdvice())) {
                return true;
            }
        }
        return false;
    }
}
