package io.distlock.spring.aop;

import io.distlock.core.Lease;
import io.distlock.core.CurrentLease;
import io.distlock.spring.DistributedLock;

/**
 * A second bean, so that a guarded method can call a guarded method through a proxy.
 */
public class NestedJobs {

    @DistributedLock(resource = "#{#name}", minHold = "PT10S")
    public Lease inner(String name) {
        return CurrentLease.require();
    }
}
