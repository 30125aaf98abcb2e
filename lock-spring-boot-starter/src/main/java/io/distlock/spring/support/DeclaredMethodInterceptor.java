package io.distlock.spring.support;

import java.lang.reflect.Method;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;

/**
 * The opening every aspect's interceptor shares: finds the declaration of the invoked method as the target's class
 * sees it, and lets a call of a method without one through untouched.
 *
 * @param <D> a parsed declaration
 */
public abstract class DeclaredMethodInterceptor<D> implements MethodInterceptor {

    private final DeclaredMethods<D> declarations;

    /**
     * @param declarations the aspect's declarations
     */
    protected DeclaredMethodInterceptor(DeclaredMethods<D> declarations) {
        this.declarations = declarations;
    }

    @Override
    public final @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Method method = invocation.getMethod();
        Class<?> targetClass = target != null ? AopUtils.getTargetClass(target) : method.getDeclaringClass();
        D declaration = declarations.find(method, targetClass);
        if (declaration == null) {
            return invocation.proceed();
        }
        return invoke(declaration, invocation, target, targetClass);
    }

    /**
     * Runs a call of a declared method.
     *
     * @param declaration the method's declaration
     * @param invocation the call
     * @param target the object the method is invoked on
     * @param targetClass its class
     * @return what the caller gets
     * @throws Throwable what the method or the aspect threw
     */
    protected abstract @Nullable Object invoke(D declaration, MethodInvocation invocation, @Nullable Object target,
            Class<?> targetClass) throws Throwable;
}
