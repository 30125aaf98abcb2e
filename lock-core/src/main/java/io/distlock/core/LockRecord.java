package io.distlock.core;

import java.time.Instant;
import java.util.Objects;

/**
 * The state of one held lock as the database recorded it.
 *
 * @param resource the locked resource's name
 * @param owner the token naming the acquisition that holds it
 * @param token the fencing token issued to this owner: larger than every token issued for this resource before
 * @param acquiredAt when this owner took the lock (database time, UTC)
 * @param expiresAt when the lease runs out unless renewed (database time, UTC)
 */
public record LockRecord(String resource, String owner, long token, Instant acquiredAt, Instant expiresAt) {

    public LockRecord {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(acquiredAt, "acquiredAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /**
     * Returns the key naming this acquisition.
     *
     * @return the resource and owner of this record
     */
    public LeaseKey key() {
        return new LeaseKey(resource, owner);
    }
}
