/**
 * The check that the lock store {@code distributed-lock.store} chooses is there: a start that would leave the
 * application without a lock manager, its guarded methods running unguarded, fails instead, naming the property and
 * what to add.
 */
@NullMarked
package io.distlock.spring.store;

import org.jspecify.annotations.NullMarked;
