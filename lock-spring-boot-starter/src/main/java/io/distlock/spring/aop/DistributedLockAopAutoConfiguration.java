package io.distlock.spring.aop;

import io.distlock.core.LockManager;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of {@link io.distlock.spring.DistributedLock}: the advisor and the start-up check of every
 * declaration, on the application's {@link LockManager}, whichever store holds the locks.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass(LockManager.class)
@ConditionalOnBean(LockManager.class)
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@Import(DistributedLockAopConfiguration.class)
public final class DistributedLockAopAutoConfiguration {
}
