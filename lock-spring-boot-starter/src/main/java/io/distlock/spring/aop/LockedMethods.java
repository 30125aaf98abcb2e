package io.distlock.spring.aop;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.support.AdvisedMethods;
import io.distlock.spring.support.DeclaredMethods;
import io.distlock.spring.support.InvalidLockDeclarationException;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.function.SingletonSupplier;

/**
 * The {@link DistributedLock} declarations of an application context, each parsed once per method and target class
 * and cached; and the evaluation of their resource templates on every call.
 */
final class LockedMethods {

    private final ParameterNameDiscoverer parameterNames = new CachingParameterNameDiscoverer();

    private final BeanFactoryResolver beanResolver;

    private final Supplier<LockedMethodParser> parser;

    private final DeclaredMethods<LockedMethod> declarations = new DeclaredMethods<>(this::parse);

    /**
     * Creates the registry.
     *
     * @param beanFactory resolves placeholders and {@code @bean} references
     * @param defaults the defaults and bounds declarations are checked against, read on first use
     */
    LockedMethods(BeanFactory beanFactory, Supplier<LockedMethodDefaults> defaults) {
        this.beanResolver = new BeanFactoryResolver(beanFactory);
        this.parser = SingletonSupplier.of(() -> new LockedMethodParser(beanFactory, parameterNames, defaults.get()));
    }

    /**
     * Returns the parsed declaration of a method, parsing it on first use.
     *
     * @param method the invoked method, possibly declared by an interface
     * @param targetClass the class of the object it is invoked on
     * @return the declaration, or {@code null} when the method is not guarded
     * @throws InvalidLockDeclarationException when the declaration is wrong
     */
    @Nullable LockedMethod find(Method method, Class<?> targetClass) {
        return declarations.find(method, targetClass);
    }

    /** @return the declarations, parsed on first use */
    DeclaredMethods<LockedMethod> declarations() {
        return declarations;
    }

    /**
     * Evaluates a declaration's resource template for one call.
     *
     * @param lockedMethod the declaration
     * @param target the object the method is invoked on
     * @param targetClass its class
     * @param args the call's arguments
     * @return the resource name
     * @throws IllegalArgumentException when the template yields {@code null} or an invalid name
     */
    String resourceName(LockedMethod lockedMethod, @Nullable Object target, Class<?> targetClass,
            @Nullable Object[] args) {
        if (lockedMethod.resource().isLiteral()) {
            return lockedMethod.resource().text();
        }
        LockExpressionRoot root = new LockExpressionRoot(lockedMethod.method(), target, targetClass, args);
        return lockedMethod.resource().evaluate(root, args, parameterNames, beanResolver);
    }

    /**
     * Checks every guarded method of a class.
     *
     * @param targetClass the user class of a bean
     * @param classProxy whether the bean is a class-based (CGLIB) proxy, which cannot intercept final methods
     * @return one message per problem; empty when all declarations are valid
     */
    List<String> validate(Class<?> targetClass, boolean classProxy) {
        Map<Method, DistributedLock> annotated = guardedMethods(targetClass);
        List<String> problems = new ArrayList<>();
        for (Method method : annotated.keySet()) {
            String unreachable = AdvisedMethods.unreachable(method, classProxy);
            if (unreachable != null) {
                problems.add("@DistributedLock on " + LockedMethod.describe(method, targetClass) + ": the method is "
                        + unreachable + ", so Spring AOP proxies cannot intercept it and the lock would never be "
                        + "taken; make it public and not " + unreachable + ", or weave the aspect into the class "
                        + "(distributed-lock.mode=aspectj)");
                continue;
            }
            try {
                find(method, targetClass);
            }
            catch (InvalidLockDeclarationException ex) {
                problems.addAll(ex.problems());
            }
        }
        return problems;
    }

    /**
     * Checks every guarded method of a class the AspectJ aspect is woven into: private and final methods are fine
     * there, static ones belong to no bean, and a method without the woven aspect would run unguarded.
     *
     * @param targetClass the user class of a bean
     * @return one message per problem; empty when all declarations are valid and woven
     */
    List<String> validateWoven(Class<?> targetClass) {
        List<String> problems = new ArrayList<>();
        for (Method method : guardedMethods(targetClass).keySet()) {
            String description = LockedMethod.describe(method, targetClass);
            if (java.lang.reflect.Modifier.isStatic(method.getModifiers())) {
                problems.add("@DistributedLock on " + description + ": the method is static, so it belongs to no "
                        + "bean; make it an instance method");
                continue;
            }
            if (!AdvisedMethods.isWoven(method)) {
                problems.add("@DistributedLock on " + description + ": distributed-lock.mode is aspectj, but the "
                        + "aspect of io.distlock:lock-aspectj is not woven into " + method.getDeclaringClass()
                        .getName() + ", so the lock would never be taken; weave it at compile time (lock-aspectj as "
                        + "an aspect library of the aspectj-maven-plugin) or at load time (-javaagent:aspectjweaver)");
                continue;
            }
            try {
                find(method, targetClass);
            }
            catch (InvalidLockDeclarationException ex) {
                problems.addAll(ex.problems());
            }
        }
        return problems;
    }

    /**
     * The labels of the declarations parsed so far: every valid one once the context's beans were validated.
     *
     * @return the resource templates, each once
     */
    java.util.Set<String> declaredNames() {
        java.util.Set<String> names = new java.util.TreeSet<>();
        declarations.declared().forEach(method -> names.add(method.resource().text()));
        return names;
    }

    /**
     * Whether a class declares or inherits {@link DistributedLock} methods.
     *
     * @param targetClass the user class of a bean
     * @return {@code true} when at least one method is annotated
     */
    boolean hasGuardedMethods(Class<?> targetClass) {
        return !guardedMethods(targetClass).isEmpty();
    }

    /**
     * The {@link DistributedLock} methods a class declares or inherits.
     *
     * @param targetClass the user class of a bean
     * @return the methods
     */
    static java.util.Set<Method> guardedMethodsOf(Class<?> targetClass) {
        return guardedMethods(targetClass).keySet();
    }

    private static Map<Method, DistributedLock> guardedMethods(Class<?> targetClass) {
        if (!AnnotationUtils.isCandidateClass(targetClass, DistributedLock.class)) {
            return Map.of();
        }
        return MethodIntrospector.selectMethods(targetClass,
                (MethodIntrospector.MetadataLookup<DistributedLock>) method -> AnnotatedElementUtils
                        .findMergedAnnotation(method, DistributedLock.class));
    }

    private Optional<LockedMethod> parse(Method method, Class<?> targetClass) {
        Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
        DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(specific, DistributedLock.class);
        if (annotation == null && specific != method) {
            annotation = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
        }
        if (annotation == null) {
            return Optional.empty();
        }
        return Optional.of(parser.get().parse(specific, targetClass, annotation));
    }

    /** Finds each method's parameter names once, instead of on every evaluation of a template. */
    private static final class CachingParameterNameDiscoverer implements ParameterNameDiscoverer {

        private static final String[] NONE = new String[0];

        private final ParameterNameDiscoverer discoverer = new DefaultParameterNameDiscoverer();

        private final Map<Method, String[]> names = new ConcurrentHashMap<>();

        @Override
        public String @Nullable [] getParameterNames(Method method) {
            String[] found = names.computeIfAbsent(method, key -> {
                String[] discovered = discoverer.getParameterNames(key);
                return discovered != null ? discovered : NONE;
            });
            return found == NONE ? null : found;
        }

        @Override
        public String @Nullable [] getParameterNames(Constructor<?> ctor) {
            return discoverer.getParameterNames(ctor);
        }
    }
}
