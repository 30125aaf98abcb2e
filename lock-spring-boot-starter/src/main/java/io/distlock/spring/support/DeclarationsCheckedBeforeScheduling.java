package io.distlock.spring.support;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.Schedules;
import org.springframework.scheduling.config.TaskManagementConfigUtils;

/**
 * Runs {@link LockDeclarationChecks} as soon as the first bean with {@code @Scheduled} methods is initialised, before
 * Spring's own {@code @Scheduled} processing sees it: that processing fails the start on the first scheduled method
 * it cannot schedule (a bad cron, a method with parameters), which would hide every other wrong lock declaration.
 * The checks then read the beans not created yet from their definitions; they run once more when all singletons
 * exist.
 */
final class DeclarationsCheckedBeforeScheduling implements BeanPostProcessor, PriorityOrdered {

    private final ConfigurableListableBeanFactory beanFactory;

    private final ObjectProvider<LockDeclarationChecks> checks;

    private volatile boolean checked;

    DeclarationsCheckedBeforeScheduling(ConfigurableListableBeanFactory beanFactory,
            ObjectProvider<LockDeclarationChecks> checks) {
        this.beanFactory = beanFactory;
        this.checks = checks;
    }

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) {
        if (!checked && beanFactory.containsBean(TaskManagementConfigUtils.SCHEDULED_ANNOTATION_PROCESSOR_BEAN_NAME)
                && hasScheduledMethods(AopUtils.getTargetClass(bean))) {
            checked = true;
            checks.getObject().check();
        }
        return bean;
    }

    private static boolean hasScheduledMethods(Class<?> type) {
        if (!AnnotationUtils.isCandidateClass(type, java.util.List.of(Scheduled.class, Schedules.class))) {
            return false;
        }
        return !MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<Boolean>) method ->
                AnnotatedElementUtils.hasAnnotation(method, Scheduled.class)
                        || AnnotatedElementUtils.hasAnnotation(method, Schedules.class) ? Boolean.TRUE : null)
                .isEmpty();
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
