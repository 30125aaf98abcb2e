/**
 * The annotation that guards a method with a distributed lock, and the thread-bound access to its lease:
 * {@link io.distlock.spring.DistributedLock}, {@link io.distlock.spring.OnLocked},
 * {@link io.distlock.core.CurrentLease} and {@link io.distlock.spring.LockNotAcquiredException}.
 */
@NullMarked
package io.distlock.spring;

import org.jspecify.annotations.NullMarked;
