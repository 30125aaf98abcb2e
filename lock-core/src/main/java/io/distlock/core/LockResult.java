package io.distlock.core;

/**
 * What an owner-checked renewal or release decided: one answer shape for both, so a caller reads either the same way.
 */
public enum LockResult {

    /** The caller held a live lock and the change applied: renewed, or released (or its end set to the minimum-hold instant). */
    APPLIED,

    /** No unexpired lock exists for the resource: it was never taken, already released, or expired. */
    NOT_FOUND,

    /** The lock exists and is live, but another owner holds it: nothing changed. */
    FORBIDDEN;

    /**
     * Whether the change applied.
     *
     * @return {@code true} for {@link #APPLIED}
     */
    public boolean isApplied() {
        return this == APPLIED;
    }
}
