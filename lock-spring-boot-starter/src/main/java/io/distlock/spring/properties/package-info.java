/**
 * Start-up checks of the {@code distributed-lock.*} configuration against the configuration metadata the starter
 * and other modules ship: unknown keys, durations without a unit, and guarded methods left unguarded by
 * {@code distributed-lock.enabled=false}.
 */
@NullMarked
package io.distlock.spring.properties;

import org.jspecify.annotations.NullMarked;
