package io.distlock.core;

/**
 * A store that holds back what renewals need — such as a connection of its own — while leases are kept alive, and
 * gives it back when none are: renewals must not depend on the application winning a race for its own connection
 * pool.
 */
public interface RenewalCapacity {

    /**
     * Told by the watchdog whether it keeps leases alive. Called with {@code true} in the thread of every lease to be
     * kept alive, before its guarded work runs (so reserving may wait for the capacity, and a store replaces then what
     * it lost since — a reserved connection that broke — but must return at once when it still holds what it
     * reserved), and with {@code false} on the watchdog's thread once no lease is kept alive, never concurrently by
     * one holder. Several watchdogs may share a store, each a holder of its own: what is reserved stays while any
     * holder wants it.
     *
     * @param holder who asks: the same object for every call of one watchdog
     * @param reserve {@code true} while at least one of the holder's leases is kept alive
     */
    void reserveForRenewals(Object holder, boolean reserve);
}
