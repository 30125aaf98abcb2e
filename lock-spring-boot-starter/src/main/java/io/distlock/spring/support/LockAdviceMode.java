package io.distlock.spring.support;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * How the lock annotations reach the methods they guard ({@code distributed-lock.mode}): through Spring AOP proxies
 * (the default), or through the AspectJ aspect of {@code io.distlock:lock-aspectj} woven into the classes, which
 * guards calls a bean makes on itself and private and final methods too.
 */
public enum LockAdviceMode {

    /** Spring AOP proxies: the advisors are applied by the auto-proxy creator. */
    PROXY,

    /** The woven aspect calls the interceptors; no advisor, no proxy. */
    ASPECTJ;

    /** The property that chooses the mode. */
    public static final String PROPERTY = "distributed-lock.mode";

    /** The class of the woven aspect, in {@code io.distlock:lock-aspectj}. */
    public static final String ASPECT_CLASS = "io.distlock.aspectj.DistributedLockAspect";

    /**
     * The mode an environment chooses.
     *
     * @param environment the environment
     * @return {@link #ASPECTJ} when {@code distributed-lock.mode=aspectj}, otherwise {@link #PROXY}
     */
    public static LockAdviceMode of(Environment environment) {
        return "aspectj".equalsIgnoreCase(environment.getProperty(PROPERTY, "proxy").strip()) ? ASPECTJ : PROXY;
    }

    /** Matches in proxy mode. */
    public static final class Proxy implements Condition {

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return of(context.getEnvironment()) == PROXY;
        }
    }

    /** Matches in AspectJ mode. */
    public static final class AspectJ implements Condition {

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return of(context.getEnvironment()) == ASPECTJ;
        }
    }
}
