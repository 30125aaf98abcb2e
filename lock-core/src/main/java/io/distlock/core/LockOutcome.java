package io.distlock.core;

import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * How a {@link LockManager#runLocked} call ended: the work ran, the lock was held by another owner so it did not, or
 * it ran but its lease was found lost on the way, so another owner may have run beside it.
 *
 * @param status how the call ended
 * @param value what the work returned; {@code null} unless it ran (and when it returned {@code null})
 * @param loss why the lease is known lost, present exactly when {@code status} is {@link Status#LOST}
 * @param <T> what the work returns
 */
public record LockOutcome<T>(Status status, @Nullable T value, @Nullable LockLostException loss) {

    public LockOutcome {
        Objects.requireNonNull(status, "status");
        if ((status == Status.LOST) != (loss != null)) {
            throw new IllegalArgumentException("A loss comes with LOST and only with it, got " + status);
        }
    }

    static <T> LockOutcome<T> notAcquired() {
        return new LockOutcome<>(Status.NOT_ACQUIRED, null, null);
    }

    static <T> LockOutcome<T> ran(@Nullable T value, @Nullable LockLostException loss) {
        return new LockOutcome<>(loss == null ? Status.RAN : Status.LOST, value, loss);
    }

    /**
     * Whether the work ran, with its lease held throughout or not.
     *
     * @return {@code true} for {@link Status#RAN} and {@link Status#LOST}
     */
    public boolean ran() {
        return status != Status.NOT_ACQUIRED;
    }

    /**
     * What the work returned.
     *
     * @return the value, or empty when the work did not run or returned {@code null}
     */
    public Optional<T> result() {
        return Optional.ofNullable(value);
    }

    /** How a {@link LockManager#runLocked} call ended. */
    public enum Status {

        /** The lock was taken (or an enclosing call's lease joined), the work ran, and the lease held throughout. */
        RAN,

        /** Another owner held the lock (for the whole wait, if the request waits): the work did not run. */
        NOT_ACQUIRED,

        /** The work ran, but its lease was found lost before it was released: another owner may have run too. */
        LOST
    }
}
