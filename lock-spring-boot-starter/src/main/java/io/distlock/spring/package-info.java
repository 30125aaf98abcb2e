/**
 * The annotations that guard a method with a distributed lock, and the thread-bound access to its lease:
 * {@link io.distlock.spring.DistributedLock}, {@link io.distlock.spring.OncePerSlot},
 * {@link io.distlock.spring.OnLocked}, {@link io.distlock.core.CurrentLease} and
 * {@link io.distlock.spring.LockNotAcquiredException}; and {@link io.distlock.spring.EnableDistributedLocks}, which
 * turns them on in an application without Spring Boot's auto-configuration.
 */
@NullMarked
package io.distlock.spring;

import org.jspecify.annotations.NullMarked;
