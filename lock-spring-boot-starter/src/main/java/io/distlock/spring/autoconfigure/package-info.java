/**
 * Auto-configuration of distributed locks on the application's {@link javax.sql.DataSource}: the lock repository,
 * manager, owner generator, lease watchdog, the {@code @DistributedLock} advisor, and the lock table's schema
 * initialisation.
 */
@NullMarked
package io.distlock.spring.autoconfigure;

import org.jspecify.annotations.NullMarked;
