package io.distlock.spring.support;

import java.lang.annotation.Annotation;

import org.aopalliance.aop.Advice;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.annotation.AnnotationMethodMatcher;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * Applies an aspect's interceptor to every method annotated with its annotation, directly or on an interface or
 * superclass method it implements: the advisor of {@code @DistributedLock} and of {@code @OncePerSlot} alike. Its
 * order places it outside {@code @Transactional} by default ({@link AdviceOrder#DEFAULT}), so that a lock is released
 * only after the transaction committed.
 */
public abstract class AnnotatedMethodAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    private final transient Pointcut pointcut;

    private final transient Advice interceptor;

    /**
     * Creates the advisor.
     *
     * @param annotation the annotation whose methods are advised
     * @param interceptor the advice
     * @param order the advisor's order
     */
    protected AnnotatedMethodAdvisor(Class<? extends Annotation> annotation, Advice interceptor, int order) {
        this.pointcut = new ComposablePointcut(type -> AnnotationUtils.isCandidateClass(type, annotation),
                new AnnotationMethodMatcher(annotation, true));
        this.interceptor = interceptor;
        setOrder(order);
    }

    @Override
    public Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public Advice getAdvice() {
        return interceptor;
    }
}
