package io.distlock.aspectj;

import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;

import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.reflect.MethodSignature;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.ProxyMethodInvocation;

/**
 * A woven method's execution seen as the Spring AOP invocation the interceptors take. Proceeding runs the method's
 * own body; a clone proceeds the same execution again (AspectJ lets around advice proceed more than once), as a
 * reactive result subscribed to again, or a slot checked again later, needs.
 */
final class JoinPointInvocation implements ProxyMethodInvocation {

    private final ProceedingJoinPoint joinPoint;

    private final Method method;

    private @Nullable Object[] arguments;

    private @Nullable Map<String, Object> attributes;

    JoinPointInvocation(ProceedingJoinPoint joinPoint) {
        this(joinPoint, joinPoint.getArgs());
    }

    private JoinPointInvocation(ProceedingJoinPoint joinPoint, @Nullable Object[] arguments) {
        this.joinPoint = joinPoint;
        this.method = ((MethodSignature) joinPoint.getSignature()).getMethod();
        this.arguments = arguments;
    }

    @Override
    public Method getMethod() {
        return method;
    }

    @Override
    public @Nullable Object[] getArguments() {
        return arguments;
    }

    @Override
    public @Nullable Object proceed() throws Throwable {
        return joinPoint.proceed(arguments);
    }

    @Override
    public @Nullable Object getThis() {
        return joinPoint.getThis();
    }

    @Override
    public AccessibleObject getStaticPart() {
        return method;
    }

    @Override
    public Object getProxy() {
        Object target = joinPoint.getThis();
        return target != null ? target : method.getDeclaringClass();
    }

    @Override
    public ProxyMethodInvocation invocableClone() {
        return new JoinPointInvocation(joinPoint, arguments.clone());
    }

    @Override
    public ProxyMethodInvocation invocableClone(@Nullable Object... arguments) {
        return new JoinPointInvocation(joinPoint, arguments);
    }

    @Override
    public void setArguments(@Nullable Object... arguments) {
        this.arguments = arguments;
    }

    @Override
    public void setUserAttribute(String key, @Nullable Object value) {
        if (attributes == null) {
            attributes = new HashMap<>();
        }
        attributes.put(key, value);
    }

    @Override
    public @Nullable Object getUserAttribute(String key) {
        return attributes != null ? attributes.get(key) : null;
    }
}
