package io.distlock.core;

/**
 * What an owner-checked release decided.
 */
public enum ReleaseResult {

    /** The caller held the lock and gave it up (or scheduled its end at the minimum-hold instant). */
    RELEASED,

    /** No unexpired lock exists for the resource: it was never taken, already released, or expired. */
    NOT_FOUND,

    /** The lock exists and is live, but another owner holds it: nothing changed. */
    FORBIDDEN
}
