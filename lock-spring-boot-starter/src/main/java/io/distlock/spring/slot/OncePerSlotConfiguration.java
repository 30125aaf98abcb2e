package io.distlock.spring.slot;

import io.distlock.core.LockManager;
import io.distlock.spring.autoconfigure.DistributedLockProperties;
import io.distlock.spring.support.AdviceOrder;
import io.distlock.spring.support.LockAdviceMode;
import org.aopalliance.intercept.MethodInterceptor;
import io.distlock.spring.support.LockDeclarationChecksConfiguration;
import io.distlock.spring.support.LockDeclarationListener;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.util.function.SingletonSupplier;

/**
 * The {@link io.distlock.spring.OncePerSlot} aspect's beans: the parsed declarations, the schedulers the methods
 * run on, the advisor and the start-up check of every declaration. Imported by {@link DistributedLockSlotAutoConfiguration} and by
 * {@link io.distlock.spring.EnableDistributedLocks}; public only so that it can be imported, while everything it
 * wires stays inside this package.
 */
@Configuration(proxyBeanMethods = false)
@Import(LockDeclarationChecksConfiguration.class)
public final class OncePerSlotConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static SlotMethods slotMethods(ConfigurableListableBeanFactory beanFactory,
            ObjectProvider<DistributedLockProperties> properties, Environment environment) {
        // Read on first use: advisors are created before configuration properties beans can be.
        return new SlotMethods(beanFactory, SingletonSupplier.of(() -> properties.getIfAvailable(
                () -> Binder.get(environment).bindOrCreate("distributed-lock", DistributedLockProperties.class))));
    }

    @Bean
    static SlotJobs slotJobs(SlotMethods slotMethods) {
        return new SlotJobs(slotMethods);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static SlotSchedulers slotSchedulers(ConfigurableListableBeanFactory beanFactory) {
        return new SlotSchedulers(beanFactory);
    }

    /**
     * The interceptor the woven aspect calls in AspectJ mode, where no advisor and no proxy apply it.
     */
    @Bean(name = "oncePerSlotInterceptor")
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @Conditional(LockAdviceMode.AspectJ.class)
    static MethodInterceptor oncePerSlotInterceptor(SlotMethods slotMethods, SlotSchedulers slotSchedulers,
            ObjectProvider<LockManager> lockManager) {
        return new OncePerSlotInterceptor(slotMethods, SingletonSupplier.of(lockManager::getObject), slotSchedulers);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @Conditional(LockAdviceMode.Proxy.class)
    static OncePerSlotAdvisor oncePerSlotAdvisor(SlotMethods slotMethods, SlotSchedulers slotSchedulers,
            ObjectProvider<LockManager> lockManager, Environment environment) {
        OncePerSlotInterceptor interceptor = new OncePerSlotInterceptor(slotMethods,
                SingletonSupplier.of(lockManager::getObject), slotSchedulers);
        return new OncePerSlotAdvisor(interceptor, Binder.get(environment)
            .bind("distributed-lock.aop-order", Integer.class).orElse(AdviceOrder.DEFAULT));
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static OncePerSlotValidator oncePerSlotValidator(ConfigurableListableBeanFactory beanFactory,
            SlotMethods slotMethods, SlotSchedulers slotSchedulers, ObjectProvider<LockManager> lockManager,
            ObjectProvider<LockDeclarationListener> declarationListeners, Environment environment) {
        boolean lazy = "lazy".equalsIgnoreCase(environment.getProperty("distributed-lock.startup-check", "eager"));
        return new OncePerSlotValidator(beanFactory, slotMethods, slotSchedulers, lockManager, declarationListeners,
                !lazy, LockAdviceMode.of(environment));
    }
}
