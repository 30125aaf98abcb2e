package io.distlock.spring.aop;

import java.time.Duration;

import io.distlock.core.LockArguments;
import io.distlock.core.LockManager;
import io.distlock.core.LockRequest;
import io.distlock.spring.autoconfigure.DistributedLockProperties;
import io.distlock.spring.support.AdviceOrder;
import io.distlock.spring.support.LockAdviceMode;
import io.distlock.spring.support.LockDeclarationChecksConfiguration;
import io.distlock.spring.support.LockDeclarationListener;

import org.aopalliance.intercept.MethodInterceptor;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.util.function.SingletonSupplier;

/**
 * The {@code @DistributedLock} aspect's beans: the parsed declarations, the advisor and the start-up check of every
 * declaration. Imported by {@link DistributedLockAopAutoConfiguration} and by
 * {@link io.distlock.spring.EnableDistributedLocks}; public only so that it can be imported, while everything it wires
 * stays inside this package.
 */
@Configuration(proxyBeanMethods = false)
@Import({ DistributedLockAopConfiguration.AutoProxyRegistrar.class, LockDeclarationChecksConfiguration.class })
public final class DistributedLockAopConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static LockedMethods lockedMethods(BeanFactory beanFactory, ObjectProvider<DistributedLockProperties> properties) {
        return new LockedMethods(beanFactory, () -> lockedMethodDefaults(properties.getObject()));
    }

    private static LockedMethodDefaults lockedMethodDefaults(DistributedLockProperties properties) {
        Duration maxTtl = properties.getMaxTtl();
        LockArguments.requireDuration("distributed-lock.max-ttl", maxTtl, LockArguments.MIN_TTL,
                LockRequest.MAX_DURATION);
        LockArguments.requireDuration("distributed-lock.default-ttl", properties.getDefaultTtl(), LockArguments.MIN_TTL,
                maxTtl);
        LockArguments.requireDuration("distributed-lock.max-hold", properties.getMaxHold(), LockArguments.MIN_TTL,
                LockRequest.MAX_DURATION);
        return new LockedMethodDefaults(properties.getDefaultTtl(), properties.getMaxHold(), maxTtl);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    @Conditional(LockAdviceMode.Proxy.class)
    static DistributedLockAdvisor distributedLockAdvisor(LockedMethods lockedMethods,
            ObjectProvider<LockManager> lockManager, AsynchronousRuns asynchronousRuns, Environment environment) {
        DistributedLockAdvisor advisor = new DistributedLockAdvisor(new DistributedLockInterceptor(lockedMethods,
                SingletonSupplier.of(lockManager::getObject), asynchronousRuns));
        // Bound from the environment: advisors are created before configuration properties beans can be.
        advisor.setOrder(Binder.get(environment).bind("distributed-lock.aop-order", Integer.class)
            .orElse(AdviceOrder.DEFAULT));
        return advisor;
    }

    /**
     * The interceptor the woven aspect calls in AspectJ mode, where no advisor and no proxy apply it.
     */
    @Bean(name = "distributedLockInterceptor")
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @Conditional(LockAdviceMode.AspectJ.class)
    static MethodInterceptor distributedLockInterceptor(LockedMethods lockedMethods,
            ObjectProvider<LockManager> lockManager, AsynchronousRuns asynchronousRuns) {
        return new DistributedLockInterceptor(lockedMethods, SingletonSupplier.of(lockManager::getObject),
                asynchronousRuns);
    }

    /** The asynchronous guarded calls running, stopped (their locks released) when the application closes. */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static AsynchronousRuns distributedLockAsynchronousRuns() {
        return new AsynchronousRuns();
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static LockedMethodValidator lockedMethodValidator(ConfigurableListableBeanFactory beanFactory,
            LockedMethods lockedMethods, ObjectProvider<LockDeclarationListener> declarationListeners,
            Environment environment) {
        return new LockedMethodValidator(beanFactory, lockedMethods, declarationListeners,
                LockAdviceMode.of(environment));
    }

    /**
     * Makes sure an auto-proxy creator exists, as {@code @EnableTransactionManagement} does, so that the advisor
     * applies even when {@code spring.aop.auto=false}; a more capable creator registered by Boot takes precedence.
     */
    static class AutoProxyRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware {

        private LockAdviceMode mode = LockAdviceMode.PROXY;

        @Override
        public void setEnvironment(Environment environment) {
            this.mode = LockAdviceMode.of(environment);
        }

        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            if (mode == LockAdviceMode.PROXY) {
                AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
            }
        }
    }
}
