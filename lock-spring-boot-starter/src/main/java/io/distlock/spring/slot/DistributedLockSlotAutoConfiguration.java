package io.distlock.spring.slot;

import io.distlock.core.LockManager;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Auto-configuration of {@link io.distlock.spring.OncePerSlot}: exactly-once runs of {@code @Scheduled} methods per
 * scheduled slot, on the application's {@link LockManager}.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass({ LockManager.class, Scheduled.class })
@ConditionalOnBean(LockManager.class)
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@Import(OncePerSlotConfiguration.class)
public final class DistributedLockSlotAutoConfiguration {
}
