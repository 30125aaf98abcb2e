package io.distlock.core;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;

/**
 * A store's renewal of many leases in few statements: what the {@link LeaseWatchdog} calls once per round. A store
 * without it has each lease renewed on its own ({@link LockRepository#renew}).
 */
public interface BatchRenewal {

    /**
     * Extends many live leases in few statements.
     *
     * @param leases the acquisitions to renew
     * @param ttl the new lease length, counted from now
     * @return the new expiry of every lease that was renewed. A lease missing from the map was not renewed: it is
     *     gone, or its row was held locked by another session and passed over, not waited for (the JDBC store does
     *     so); the watchdog renews each missing lease with {@link LockRepository#renew} before it counts it lost
     */
    Map<LeaseKey, LockRecord> renewAll(Collection<LeaseKey> leases, Duration ttl);
}
