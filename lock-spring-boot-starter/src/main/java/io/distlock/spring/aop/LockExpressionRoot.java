package io.distlock.spring.aop;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

/**
 * What {@code #root} refers to in a {@link io.distlock.spring.DistributedLock#resource()} template:
 * {@code #root.method}, {@code #root.methodName}, {@code #root.target}, {@code #root.targetClass} and
 * {@code #root.args}.
 */
public final class LockExpressionRoot {

    private final Method method;

    private final @Nullable Object target;

    private final Class<?> targetClass;

    private final @Nullable Object[] args;

    LockExpressionRoot(Method method, @Nullable Object target, Class<?> targetClass, @Nullable Object[] args) {
        this.method = method;
        this.target = target;
        this.targetClass = targetClass;
        this.args = args;
    }

    /**
     * The guarded method, as declared by the target class.
     *
     * @return the method
     */
    public Method getMethod() {
        return method;
    }

    /**
     * The guarded method's name.
     *
     * @return the name
     */
    public String getMethodName() {
        return method.getName();
    }

    /**
     * The bean the method is called on (the proxied target, not the proxy).
     *
     * @return the target, or {@code null} when the proxy has none
     */
    public @Nullable Object getTarget() {
        return target;
    }

    /**
     * The target's class.
     *
     * @return the class
     */
    public Class<?> getTargetClass() {
        return targetClass;
    }

    /**
     * The call's arguments.
     *
     * @return the arguments, in declaration order
     */
    public @Nullable Object[] getArgs() {
        return args;
    }
}
