/**
 * Two four-second jobs on replicas with skewed scheduler clocks: one guarded by the lock alone, one claimed per slot.
 */
@NullMarked
package io.distlock.sample.tick;

import org.jspecify.annotations.NullMarked;
