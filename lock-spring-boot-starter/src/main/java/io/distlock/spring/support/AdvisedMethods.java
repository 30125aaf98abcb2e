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
     * Whether a bean is, or will be, a class-based (CGLIB) proxy, whose subclass cannot override final methods: read
     * off the bean when it exists, otherwise predicted as Spring AOP will decide — a class proxy when the bean's
     * definition or the auto-proxy creator asks for one, or when its class has no interface to proxy.
     *
     * @param beanFactory the factory
     * @param name the bean's name
     * @param singleton the bean, when it exists
     * @param targetClass its user class
     * @return {@code true} for a class proxy
     */
    public static boolean classProxy(ConfigurableListableBeanFactory beanFactory, String name,
            @Nullable Object singleton, Class<?> targetClass) {
        if (singleton != null) {
            return org.springframework.aop.support.AopUtils.isCglibProxy(singleton);
        }
        if (org.springframework.aop.framework.autoproxy.AutoProxyUtils.shouldProxyTargetClass(beanFactory, name)) {
            return true;
        }
        String creator = org.springframework.aop.config.AopConfigUtils.AUTO_PROXY_CREATOR_BEAN_NAME;
        if (beanFactory.containsBeanDefinition(creator) && "true".equals(String.valueOf(beanFactory
                .getBeanDefinition(creator).getPropertyValues().get("proxyTargetClass")))) {
            return true;
        }
        for (Class<?> type : ClassUtils.getAllInterfacesForClassAsSet(targetClass)) {
            String typeName = type.getName();
            if (type.getMethods().length > 0 && !typeName.startsWith("org.springframework.")
                    && !typeName.startsWith("java.") && !typeName.startsWith("groovy.lang.")) {
                return false;
            }
        }
        return true;
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
     * Whether AspectJ wove the distributed-lock aspect's around advice into a method: its class then has the method's
     * body under ajc's name for it, {@code <method>_aroundBody<n>}, which compile-time and load-time weaving both give
     * it. Any aspect's around advice gives that name, so a class woven at compile time must also name the
     * distributed-lock aspect in its class file (the woven body calls it): a class woven only by another aspect —
     * spring-aspects' {@code @Transactional} aspect, an application's own — does not. A class woven at load time runs
     * other bytes than its class file, so there the name alone tells.
     *
     * @param method the annotated method
     * @return {@code true} when the method's execution runs the distributed-lock aspect
     */
    public static boolean isWoven(Method method) {
        String body = method.getName() + "_aroundBody";
        Class<?> type = method.getDeclaringClass();
        boolean aroundBody = false;
        for (Method declared : type.getDeclaredMethods()) {
            aroundBody |= declared.getName().startsWith(body);
        }
        if (!aroundBody) {
            return false;
        }
        byte[] classFile = classFile(type);
        if (classFile == null || !contains(classFile, body)) {
            // Woven at load time (or a class file that cannot be read): the loaded class is all there is to see.
            return true;
        }
        return contains(classFile, LockAdviceMode.ASPECT_CLASS.replace('.', '/'));
    }

    private static byte @Nullable [] classFile(Class<?> type) {
        ClassLoader loader = type.getClassLoader() != null ? type.getClassLoader() : ClassLoader.getSystemClassLoader();
        try (java.io.InputStream in = loader.getResourceAsStream(type.getName().replace('.', '/') + ".class")) {
            return in != null ? in.readAllBytes() : null;
        }
        catch (java.io.IOException ex) {
            logger.debug("Cannot read the class file of {}", type.getName(), ex);
            return null;
        }
    }

    /** Whether a class file holds an ASCII name, as its constant pool stores class and method names. */
    private static boolean contains(byte[] classFile, String name) {
        byte[] wanted = name.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        outer:
        for (int i = 0; i <= classFile.length - wanted.length; i++) {
            for (int j = 0; j < wanted.length; j++) {
                if (classFile[i + j] != wanted[j]) {
                    continue outer;
                }
            }
            return true;
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
