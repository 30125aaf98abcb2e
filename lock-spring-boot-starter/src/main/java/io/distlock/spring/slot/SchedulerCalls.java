package io.distlock.spring.slot;

import java.lang.reflect.Method;
import java.util.Iterator;
import java.util.Set;

/**
 * Whether a call of a scheduled method comes from Spring's scheduler: its task ({@code ScheduledMethodRunnable})
 * invokes the method reflectively on the bean, so the frame that called into the bean — through its proxy, or into
 * the woven method in AspectJ mode — was called by that task, with only reflection in between. Any other caller
 * (application code, a test, an endpoint) makes a direct call, which labels no slot.
 */
final class SchedulerCalls {

    /** The classes of Spring's scheduling that invoke a {@code @Scheduled} method, on Spring Framework 6 and 7. */
    private static final Set<String> SCHEDULER_TASKS = Set.of(
            "org.springframework.scheduling.support.ScheduledMethodRunnable");

    /** This aspect's classes between the bean's entry point and here, the woven aspect's included. */
    private static final Set<String> OWN_ADVICE = Set.of(OncePerSlotInterceptor.class.getName(),
            "io.distlock.spring.support.DeclaredMethodInterceptor", "io.distlock.aspectj.DistributedLockAspect",
            "io.distlock.aspectj.JoinPointInvocation");

    private static final StackWalker WALKER = StackWalker.getInstance();

    private SchedulerCalls() {
    }

    /**
     * Whether the running call of a method was made by Spring's scheduler.
     *
     * @param method the method called, as the interceptor sees it (declared by the class or an interface)
     * @return {@code true} when the bean's method was invoked by a scheduled task
     */
    static boolean fromScheduler(Method method) {
        return WALKER.walk(frames -> {
            Iterator<StackWalker.StackFrame> callers = frames.iterator();
            while (callers.hasNext()) {
                StackWalker.StackFrame frame = callers.next();
                if (frame.getMethodName().equals(method.getName()) && !isMachinery(frame.getClassName())) {
                    return calledByScheduler(callers);
                }
            }
            return false;
        });
    }

    /** Whether the first caller that is not reflection is a scheduled task. */
    private static boolean calledByScheduler(Iterator<StackWalker.StackFrame> callers) {
        while (callers.hasNext()) {
            String caller = callers.next().getClassName();
            if (!isReflection(caller)) {
                return SCHEDULER_TASKS.contains(caller);
            }
        }
        return false;
    }

    /**
     * The advice chain between the bean's entry point and this interceptor (Spring's and other interceptors, the
     * woven aspect), whose frames are not the bean's even when a method name matches.
     */
    private static boolean isMachinery(String className) {
        return className.startsWith("org.springframework.") || className.startsWith("org.aopalliance.")
                || OWN_ADVICE.contains(className) || isReflection(className);
    }

    private static boolean isReflection(String className) {
        return className.startsWith("java.lang.reflect.") || className.startsWith("jdk.internal.reflect.")
                || className.startsWith("java.lang.invoke.") || className.startsWith("org.springframework.util.");
    }
}
