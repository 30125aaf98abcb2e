package io.distlock.aspectj;

import org.aopalliance.intercept.MethodInterceptor;
import org.aspectj.lang.Aspects;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;

/**
 * Hands the woven {@link DistributedLockAspect} the application's interceptors: imported by
 * {@link DistributedLockAspectJAutoConfiguration} with {@code distributed-lock.mode=aspectj}, and by
 * {@code @EnableDistributedLocks(mode = AdviceMode.ASPECTJ)}.
 */
@Configuration(proxyBeanMethods = false)
public class DistributedLockAspectConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static DistributedLockAspect distributedLockAspect(
            @Qualifier("distributedLockInterceptor") MethodInterceptor distributedLock,
            @Qualifier("oncePerSlotInterceptor") ObjectProvider<MethodInterceptor> oncePerSlot) {
        DistributedLockAspect aspect = Aspects.aspectOf(DistributedLockAspect.class);
        aspect.configure(distributedLock, oncePerSlot.getIfAvailable());
        return aspect;
    }
}
