/**
 * Once-per-slot runs of {@code @Scheduled} methods: the {@link io.distlock.spring.OncePerSlot} aspect, the slot each
 * trigger defines, and the start-up check of every declaration.
 */
@NullMarked
package io.distlock.spring.slot;

import org.jspecify.annotations.NullMarked;
