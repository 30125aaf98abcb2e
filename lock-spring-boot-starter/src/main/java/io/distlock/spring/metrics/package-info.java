/**
 * Micrometer meters for lock traffic: acquire outcomes, hold times, active leases, renewals and losses.
 */
@NullMarked
package io.distlock.spring.metrics;

import org.jspecify.annotations.NullMarked;
