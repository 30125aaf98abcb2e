package io.distlock.spring.support;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;

/**
 * Registers {@link LockDeclarationChecks} once, whichever aspects' configurations import it, and runs them before
 * Spring's {@code @Scheduled} processing too ({@link DeclarationsCheckedBeforeScheduling}).
 */
@Configuration(proxyBeanMethods = false)
public final class LockDeclarationChecksConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static LockDeclarationChecks lockDeclarationChecks(ObjectProvider<LockDeclarationCheck> checks) {
        return new LockDeclarationChecks(checks);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static DeclarationsCheckedBeforeScheduling lockDeclarationsCheckedBeforeScheduling(
            ConfigurableListableBeanFactory beanFactory, ObjectProvider<LockDeclarationChecks> checks) {
        return new DeclarationsCheckedBeforeScheduling(beanFactory, checks);
    }
}
