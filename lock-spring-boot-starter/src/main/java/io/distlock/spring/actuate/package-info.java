/**
 * Actuator support: the {@code locks} endpoint for operators and the {@code distributedLock} health indicator.
 */
@NullMarked
package io.distlock.spring.actuate;

import org.jspecify.annotations.NullMarked;
