package io.distlock.core;

import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of a renewal: the record with its new expiry, or the reason the lease could not be extended.
 *
 * @param status what the renewal decided
 * @param record the renewed lock, present exactly when {@code status} is {@link LockResult#APPLIED}
 */
public record RenewResult(LockResult status, @Nullable LockRecord record) {

    public RenewResult {
        Objects.requireNonNull(status, "status");
        if ((status == LockResult.APPLIED) != (record != null)) {
            throw new IllegalArgumentException("A record comes with APPLIED and only with it, got " + status);
        }
    }

    /**
     * A successful renewal.
     *
     * @param record the lock with its new expiry
     * @return the result
     */
    public static RenewResult renewed(LockRecord record) {
        return new RenewResult(LockResult.APPLIED, record);
    }

    /**
     * A refused renewal.
     *
     * @param status {@link LockResult#NOT_FOUND} or {@link LockResult#FORBIDDEN}
     * @return the result
     */
    public static RenewResult refused(LockResult status) {
        return new RenewResult(status, null);
    }

    /**
     * The renewed record, if any.
     *
     * @return the record when renewed, otherwise empty
     */
    public Optional<LockRecord> renewedRecord() {
        return Optional.ofNullable(record);
    }
}
