package io.distlock.aspectj;

import org.aopalliance.intercept.MethodInterceptor;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.jspecify.annotations.Nullable;

/**
 * The {@code @DistributedLock} and {@code @OncePerSlot} aspect for AspectJ weaving, as spring-aspects'
 * {@code AnnotationTransactionAspect} is for {@code @Transactional}: woven into the classes themselves (at compile
 * time with this module as an aspect library, or at load time), it runs the execution of every method annotated
 * {@link io.distlock.spring.DistributedLock} or {@link io.distlock.spring.OncePerSlot} through the same interceptors
 * as proxy mode — whoever calls it: another bean, the bean itself ({@code this.generate(…)}), and private and final
 * methods too. A singleton per class loader, configured by {@link DistributedLockAspectConfiguration} once the
 * application context has its interceptors; a guarded method called before that fails rather than run unguarded.
 *
 * <p>The annotation must be on the method that runs, directly or on an annotation of the application's that carries
 * it as a meta-annotation (one level, as {@code @ComposedLock} annotated {@code @DistributedLock}): AspectJ does not
 * match annotations inherited from an interface or a superclass method, and the start refuses such a method in
 * AspectJ mode, since the aspect is not woven into it.
 */
@Aspect
public class DistributedLockAspect {

    private volatile @Nullable MethodInterceptor distributedLock;

    private volatile @Nullable MethodInterceptor oncePerSlot;

    /**
     * Hands the aspect the application's interceptors.
     *
     * @param distributedLock the {@code @DistributedLock} interceptor
     * @param oncePerSlot the {@code @OncePerSlot} interceptor, or {@code null} when scheduling is absent
     */
    public void configure(MethodInterceptor distributedLock, @Nullable MethodInterceptor oncePerSlot) {
        this.distributedLock = distributedLock;
        this.oncePerSlot = oncePerSlot;
    }

    /**
     * Runs a {@code @DistributedLock} method under its lock.
     *
     * @param joinPoint the method's execution
     * @return what the interceptor returns
     * @throws Throwable what the method or the interceptor throws
     */
    @Around("execution(@io.distlock.spring.DistributedLock * *(..)) "
            + "|| execution(@(@io.distlock.spring.DistributedLock *) * *(..))")
    public @Nullable Object distributedLock(ProceedingJoinPoint joinPoint) throws Throwable {
        return run(distributedLock, "@DistributedLock", joinPoint);
    }

    /**
     * Runs a {@code @OncePerSlot} method once per slot.
     *
     * @param joinPoint the method's execution
     * @return what the interceptor returns
     * @throws Throwable what the method or the interceptor throws
     */
    @Around("execution(@io.distlock.spring.OncePerSlot * *(..)) "
            + "|| execution(@(@io.distlock.spring.OncePerSlot *) * *(..))")
    public @Nullable Object oncePerSlot(ProceedingJoinPoint joinPoint) throws Throwable {
        return run(oncePerSlot, "@OncePerSlot", joinPoint);
    }

    private static @Nullable Object run(@Nullable MethodInterceptor interceptor, String annotation,
            ProceedingJoinPoint joinPoint) throws Throwable {
        if (interceptor == null) {
            throw new IllegalStateException(annotation + " method " + joinPoint.getSignature().toLongString()
                    + " was called before distributed locks were configured in AspectJ mode (or without them: "
                    + "distributed-lock.mode=aspectj and io.distlock:lock-aspectj in a Spring application); it was "
                    + "not run");
        }
        return interceptor.invoke(new JoinPointInvocation(joinPoint));
    }
}
