/**
 * A service running on several replicas whose scheduled jobs must each run once per slot, whatever the replicas'
 * clocks say.
 */
@NullMarked
package io.distlock.sample;

import org.jspecify.annotations.NullMarked;
