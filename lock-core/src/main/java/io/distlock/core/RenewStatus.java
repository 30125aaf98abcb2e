package io.distlock.core;

/**
 * Why a renewal succeeded or did not.
 */
public enum RenewStatus {

    /** The caller held the lock; its expiry moved forward. */
    RENEWED,

    /** No unexpired lock exists for the resource: the lease expired or was released. */
    NOT_FOUND,

    /** Another owner holds a live lock on the resource. */
    FORBIDDEN
}
