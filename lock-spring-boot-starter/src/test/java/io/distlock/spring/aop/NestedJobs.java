package io.distlock.spring.aop;

import io.distlock.core.Lease;
import io.distlock.core.CurrentLease;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.OnLocked;
import org.jspecify.annotations.Nullable;

/**
 * A second bean, so that a guarded method can call a guarded method through a proxy.
 */
public class NestedJobs {

    @DistributedLock(resource = "#{#name}", minHold = "PT10S")
    public Lease inner(@Nullable String name) {
        return CurrentLease.require();
    }

    @DistributedLock(resource = "#{#name}")
    public void failing(String name) {
        throw new IllegalStateException("nested call on " + CurrentLease.require().resource() + " failed");
    }

    @DistributedLock(resource = "#{#name}", onLocked = OnLocked.THROW)
    public void throwing(String name) {
    }
}
