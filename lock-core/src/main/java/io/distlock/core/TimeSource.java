package io.distlock.core;

/**
 * Whose clock decides when a lease expires.
 */
public enum TimeSource {

    /**
     * The database's clock, read inside every lock statement. Skewed application clocks cannot create two owners.
     * The default, and the only safe choice when several machines share the lock table.
     */
    DATABASE,

    /**
     * The application's {@link java.time.Clock}, sent as a statement parameter. Meant for tests that need to move
     * time; replicas whose clocks differ can then both believe they hold a lock.
     */
    APPLICATION
}
