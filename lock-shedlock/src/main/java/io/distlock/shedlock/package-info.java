/**
 * ShedLock's {@code LockProvider} on distlock's lock stores: an application that uses ShedLock's
 * {@code @SchedulerLock} keeps its annotations and moves its locks to distlock's table (database time, owner-checked
 * release, fencing tokens) by replacing one bean, then moves to {@code @DistributedLock} or {@code @OncePerSlot} when
 * it likes.
 */
@NullMarked
package io.distlock.shedlock;

import org.jspecify.annotations.NullMarked;
