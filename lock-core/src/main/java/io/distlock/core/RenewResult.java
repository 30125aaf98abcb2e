package io.distlock.core;

import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of a renewal: the record with its new expiry, or the reason the lease could not be extended.
 *
 * @param status what the renewal decided
 * @param record the renewed lock, present exactly when {@code status} is {@link RenewStatus#RENEWED}
 */
public record RenewResult(RenewStatus status, @Nullable LockRecord record) {

    public RenewResult {
        Objects.requireNonNull(status, "status");
        if ((status == RenewStatus.RENEWED) != (record != null)) {
            throw new IllegalArgumentException("A record comes with RENEWED and only with it, got " + status);
        }
    }

    /**
     * A successful renewal.
     *
     * @param record the lock with its new expiry
     * @return the result
     */
    public static RenewResult renewed(LockRecord record) {
        return new RenewResult(RenewStatus.RENEWED, record);
    }

    /**
     * A refused renewal.
     *
     * @param status {@link RenewStatus#NOT_FOUND} or {@link RenewStatus#FORBIDDEN}
     * @return the result
     */
    public static RenewResult refused(RenewStatus status) {
        return new RenewResult(status, null);
    }

    /**
     * Whether the lease was extended.
     *
     * @return {@code true} when renewed
     */
    public boolean isRenewed() {
        return status == RenewStatus.RENEWED;
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
