package io.distlock.spring.aop;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import io.distlock.core.LockArguments;
import io.distlock.core.LockRequest;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.OnLocked;
import io.distlock.spring.support.AsynchronousResult;
import io.distlock.spring.support.AsynchronousResults;
import io.distlock.spring.support.DeclaredAttributes;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.ResolvableType;
import org.springframework.expression.ParseException;

/**
 * Turns a {@link DistributedLock} annotation into a {@link LockedMethod}, checking every attribute and collecting
 * every problem, each naming the method and the attribute ({@link DeclaredAttributes}, as every declaration's).
 */
final class LockedMethodParser {

    /** The longest wait {@link io.distlock.core.LockManager#acquire} accepts. */
    private static final Duration MAX_WAIT = LockRequest.MAX_WAIT;

    private static final String LONGEST = "10 years, the longest duration a lock request accepts";

    private static final Pattern POSITIONAL = Pattern.compile("[pa](\\d+)");

    private final BeanFactory beanFactory;

    private final ParameterNameDiscoverer parameterNames;

    private final LockedMethodDefaults defaults;

    LockedMethodParser(BeanFactory beanFactory, ParameterNameDiscoverer parameterNames, LockedMethodDefaults defaults) {
        this.beanFactory = beanFactory;
        this.parameterNames = parameterNames;
        this.defaults = defaults;
    }

    /**
     * Parses a declaration.
     *
     * @param method the annotated method, as the target class declares it
     * @param targetClass the class the method is called on
     * @param annotation the declaration
     * @return the parsed declaration
     * @throws io.distlock.spring.support.InvalidLockDeclarationException listing every problem found
     */
    LockedMethod parse(Method method, Class<?> targetClass, DistributedLock annotation) {
        String description = LockedMethod.describe(method, targetClass);
        DeclaredAttributes problems = DeclaredAttributes.onMethod("@DistributedLock", description,
                beanFactory instanceof ConfigurableBeanFactory configurable ? configurable::resolveEmbeddedValue
                        : null);
        ResourceTemplate resource = resource(method, targetClass, annotation.resource(), problems);
        Duration ttl = problems.duration("ttl", annotation.ttl(), defaults.ttl());
        Duration minHold = problems.duration("minHold", annotation.minHold(), Duration.ZERO);
        Duration maxHold = problems.duration("maxHold", annotation.maxHold(), defaults.maxHold());
        Duration waitTimeout = problems.duration("waitTimeout", annotation.waitTimeout(),
                ttl != null ? ttl : Duration.ZERO);
        ttl = problems.within("ttl", annotation.ttl(), ttl, LockArguments.MIN_TTL, defaults.maxTtl(),
                "distributed-lock.max-ttl");
        minHold = problems.within("minHold", annotation.minHold(), minHold, Duration.ZERO, defaults.maxTtl(),
                "distributed-lock.max-ttl");
        maxHold = problems.within("maxHold", annotation.maxHold(), maxHold, LockArguments.MIN_TTL,
                LockRequest.MAX_DURATION, LONGEST);
        if (annotation.onLocked() == OnLocked.WAIT) {
            problems.within("waitTimeout", annotation.waitTimeout(), waitTimeout, Duration.ZERO, MAX_WAIT, null);
        }
        if (minHold != null && maxHold != null && minHold.compareTo(maxHold) > 0) {
            problems.add("minHold", annotation.minHold(), "is longer than maxHold (" + maxHold + "): the lock would "
                    + "have to stay held after the watchdog stopped renewing it");
        }
        if (!annotation.waitTimeout().isEmpty() && annotation.onLocked() != OnLocked.WAIT) {
            problems.add("waitTimeout", annotation.waitTimeout(), "only applies to onLocked = WAIT, but onLocked is "
                    + annotation.onLocked());
        }
        Class<?> returnType = method.getReturnType();
        AsynchronousResult asynchronous = AsynchronousResults.of(method);
        if (asynchronous != null && asynchronous.kind() == AsynchronousResult.Kind.UNSUPPORTED) {
            problems.add("the method returns " + asynchronous.type() + ", which cannot be guarded: "
                    + asynchronous.unsupported());
        }
        if (annotation.onLocked() == OnLocked.SKIP && returnType.isPrimitive() && returnType != void.class) {
            problems.add("onLocked", "SKIP", "returns null for a skipped call, but the method returns "
                    + returnType.getName() + ": use THROW or WAIT, or return a wrapper type or an Optional");
        }
        if (annotation.onLocked() == OnLocked.SKIP && asynchronous != null && !asynchronous.canCompleteEmpty()) {
            problems.add("onLocked", "SKIP", "completes a skipped call (or one whose lease was lost) empty, but the "
                    + "method returns " + asynchronous.type() + ", which cannot complete empty: use THROW or WAIT, or "
                    + "return a type that can be empty (a Mono, a Maybe)");
        }
        problems.throwIfAny();
        return new LockedMethod(method, description, resource, ttl, minHold, maxHold, annotation.onLocked(),
                waitTimeout, annotation.renew(), returnType == Optional.class, asynchronous);
    }

    private @Nullable ResourceTemplate resource(Method method, Class<?> targetClass, String declared,
            DeclaredAttributes problems) {
        String text = problems.text("resource", declared);
        if (text == null) {
            return null;
        }
        ResourceTemplate template;
        try {
            template = ResourceTemplate.parse(text);
        }
        catch (ParseException ex) {
            problems.add("resource", declared, "is not a valid SpEL template: " + ex.getMessage());
            return null;
        }
        if (template.isLiteral()) {
            try {
                LockArguments.requireResource(text);
            }
            catch (IllegalArgumentException ex) {
                problems.add("resource", declared, "is not a valid resource name: " + ex.getMessage());
            }
        }
        checkVariables(method, declared, template, problems);
        checkStableText(method, targetClass, declared, template, problems);
        for (String bean : template.beanNames()) {
            String name = bean.startsWith("&") ? bean.substring(1) : bean;
            if (!beanFactory.containsBean(name)) {
                problems.add("resource", declared, "refers to bean @" + bean + ", but there is no such bean");
            }
        }
        return template;
    }

    private void checkVariables(Method method, String declared, ResourceTemplate template,
            DeclaredAttributes problems) {
        int count = method.getParameterCount();
        String @Nullable [] names = parameterNames.getParameterNames(method);
        Set<String> known = new LinkedHashSet<>(List.of("root", "this"));
        if (names != null) {
            known.addAll(Arrays.asList(names));
        }
        for (String variable : template.variables()) {
            if (known.contains(variable)) {
                continue;
            }
            var positional = POSITIONAL.matcher(variable);
            if (positional.matches()) {
                if (Integer.parseInt(positional.group(1)) < count) {
                    continue;
                }
                problems.add("resource", declared, "refers to #" + variable + ", but the method takes " + count
                        + (count == 1 ? " parameter" : " parameters"));
            }
            else if (names == null) {
                problems.add("resource", declared, "refers to #" + variable + ", but the parameter names are not "
                        + "available: compile with -parameters, or use #p0, #p1, …");
            }
            else {
                problems.add("resource", declared, "refers to #" + variable + ", but the method has no such "
                        + "parameter; it has " + (count == 0 ? "none" : "#" + String.join(", #", names)));
            }
        }
    }

    /**
     * Refuses what cannot render the same text on every call and in every JVM: the target bean, the expression root,
     * and parameters whose declared type (or element type) is a concrete class without a toString() of its own.
     */
    private void checkStableText(Method method, Class<?> targetClass, String declared, ResourceTemplate template,
            DeclaredAttributes problems) {
        for (String part : template.partsReferringToTarget()) {
            problems.add("resource", declared, "refers to the target bean in #{" + part + "}: its text differs per "
                    + "instance and per JVM, so the lock would exclude nothing; use #root.targetClass, a bean "
                    + "property (@name.property) or a parameter");
        }
        String @Nullable [] names = parameterNames.getParameterNames(method);
        List<String> parameters = names != null ? Arrays.asList(names) : List.of();
        for (ResourceTemplate.RenderedVariable rendered : template.renderedVariables()) {
            String variable = rendered.variable();
            if (variable.equals("root")) {
                problems.add("resource", declared, "renders #{" + rendered.expression() + "}, the expression root "
                        + "object, which has no stable text; use #root.methodName, #root.targetClass or a parameter");
                continue;
            }
            List<Integer> indexes = new ArrayList<>();
            if (variable.equals("root.args")) {
                for (int i = 0; i < method.getParameterCount(); i++) {
                    indexes.add(i);
                }
            }
            else {
                var positional = POSITIONAL.matcher(variable);
                int index = positional.matches() ? Integer.parseInt(positional.group(1)) : parameters.indexOf(variable);
                if (index >= 0 && index < method.getParameterCount()) {
                    indexes.add(index);
                }
            }
            for (int index : indexes) {
                ResolvableType type = ResolvableType.forMethodParameter(method, index, targetClass);
                Class<?> unstable = ResourceText.withoutStableText(type);
                if (unstable != null) {
                    String parameter = index < parameters.size() ? "#" + parameters.get(index) : "#p" + index;
                    problems.add("resource", declared, "renders #{" + rendered.expression() + "}, and parameter "
                            + parameter + " (" + type + ") " + (unstable == type.resolve() ? "is" : "holds")
                            + " a " + unstable.getName() + ", which has no toString() of its own: Object's identity "
                            + "form (" + unstable.getSimpleName() + "@1b6d3586) differs per instance and per JVM, "
                            + "so the lock would exclude nothing; render a stable property such as #{" + parameter
                            + ".id}, or give " + unstable.getSimpleName() + " a toString()");
                }
            }
        }
    }
}
