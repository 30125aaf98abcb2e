/**
 * What {@link io.distlock.spring.EnableDistributedLocks} imports in an application without Spring Boot's
 * auto-configuration: the lock store, its settings and the lock manager; the aspects come from their own packages.
 */
@NullMarked
package io.distlock.spring.enable;

import org.jspecify.annotations.NullMarked;
