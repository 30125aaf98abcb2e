package io.distlock.spring.slot;

import java.time.Clock;

import io.distlock.core.LockManager;
import io.distlock.spring.aop.DistributedLockAdvisor;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockProperties;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.util.function.SingletonSupplier;

/**
 * Auto-configuration of {@link io.distlock.spring.OncePerSlot}: exactly-once runs of {@code @Scheduled} methods per
 * scheduled slot, on the application's {@link LockManager}.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass({ LockManager.class, Scheduled.class })
@ConditionalOnBean(LockManager.class)
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
public final class DistributedLockSlotAutoConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static SlotMethods slotMethods(ConfigurableListableBeanFactory beanFactory, Environment environment) {
        Binder binder = Binder.get(environment);
        DistributedLockProperties defaults = new DistributedLockProperties();
        return new SlotMethods(beanFactory,
                binder.bind("distributed-lock.default-ttl", java.time.Duration.class).orElse(defaults.getDefaultTtl()),
                binder.bind("distributed-lock.max-hold", java.time.Duration.class).orElse(defaults.getMaxHold()));
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static OncePerSlotAdvisor oncePerSlotAdvisor(SlotMethods slotMethods, ObjectProvider<LockManager> lockManager,
            ConfigurableListableBeanFactory beanFactory, Environment environment) {
        OncePerSlotInterceptor interceptor = new OncePerSlotInterceptor(slotMethods,
                SingletonSupplier.of(lockManager::getObject), qualifier -> schedulerClock(beanFactory, qualifier));
        return new OncePerSlotAdvisor(interceptor, Binder.get(environment)
            .bind("distributed-lock.aop-order", Integer.class).orElse(DistributedLockAdvisor.DEFAULT_ORDER));
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static OncePerSlotValidator oncePerSlotValidator(ConfigurableListableBeanFactory beanFactory,
            SlotMethods slotMethods, ObjectProvider<LockManager> lockManager, Environment environment) {
        boolean lazy = "lazy".equalsIgnoreCase(environment.getProperty("distributed-lock.startup-check", "eager"));
        return new OncePerSlotValidator(beanFactory, slotMethods, lockManager, !lazy);
    }

    /** The clock the method's scheduler fires by: the named scheduler's, the only scheduler's, or the system's. */
    private static Clock schedulerClock(ConfigurableListableBeanFactory beanFactory, String qualifier) {
        if (!qualifier.isEmpty() && beanFactory.containsBean(qualifier)) {
            return beanFactory.getBean(qualifier, TaskScheduler.class).getClock();
        }
        TaskScheduler scheduler = beanFactory.getBeanProvider(TaskScheduler.class).getIfUnique();
        if (scheduler == null && beanFactory.containsBean("taskScheduler")) {
            scheduler = beanFactory.getBean("taskScheduler", TaskScheduler.class);
        }
        return scheduler != null ? scheduler.getClock() : Clock.systemDefaultZone();
    }
}
