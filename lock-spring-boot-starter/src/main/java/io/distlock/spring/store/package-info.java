/**
 * The checks that a lock store is there: a start that would leave the application without a lock manager, its
 * guarded methods running unguarded — the store {@code distributed-lock.store} chose missing, or no store at all
 * beside {@code @DistributedLock} or {@code @OncePerSlot} methods — fails instead, naming what to add.
 */
@NullMarked
package io.distlock.spring.store;

import org.jspecify.annotations.NullMarked;
