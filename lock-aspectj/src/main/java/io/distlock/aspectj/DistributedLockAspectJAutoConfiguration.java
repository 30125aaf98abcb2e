package io.distlock.aspectj;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Import;

/**
 * With {@code distributed-lock.mode=aspectj}, configures the woven aspect once the starter's aspects have their
 * interceptors.
 */
@AutoConfiguration(afterName = { "io.distlock.spring.aop.DistributedLockAopAutoConfiguration",
        "io.distlock.spring.slot.DistributedLockSlotAutoConfiguration" })
@ConditionalOnProperty(name = "distributed-lock.mode", havingValue = "aspectj")
@ConditionalOnBean(name = "distributedLockInterceptor")
@Import(DistributedLockAspectConfiguration.class)
public final class DistributedLockAspectJAutoConfiguration {
}
