/**
 * Leases on a shared lock table: the repository SPI, the programmatic {@link io.distlock.core.LockManager}
 * and the {@link io.distlock.core.LeaseWatchdog} that keeps leases alive while work runs.
 */
@NullMarked
package io.distlock.core;

import org.jspecify.annotations.NullMarked;
