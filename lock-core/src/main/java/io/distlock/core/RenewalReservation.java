package io.distlock.core;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.NestedExceptionUtils;

/**
 * Keeps the store's reservation for renewals ({@link RenewalCapacity#reserveForRenewals}) in step with whether the
 * watchdog keeps leases alive. Each lease to be kept alive takes the reservation in its own thread, before its guarded
 * work runs — the first one takes it, the others make sure the store still holds it (a reserved connection that broke
 * since is replaced then) — so that work which takes every pooled connection at once cannot leave the renewals without
 * one; giving it back never blocks: the watchdog's thread asks for it, and whoever applies the reservation at that
 * moment applies the current answer again once it is done. Every change is followed by an application that reads the
 * state after it, so the last one applied is always the current answer.
 */
final class RenewalReservation {

    private static final Logger logger = LoggerFactory.getLogger(RenewalReservation.class);

    private final @Nullable RenewalCapacity capacity;

    private final BooleanSupplier needed;

    private final ReentrantLock lock = new ReentrantLock();

    private volatile boolean dirty;

    /** Guarded by {@link #lock}; read without it as a hint. */
    private volatile boolean applied;

    RenewalReservation(LockRepository repository, BooleanSupplier needed) {
        this.capacity = repository.capability(RenewalCapacity.class).orElse(null);
        this.needed = needed;
    }

    /**
     * Takes the reservation now, in the calling thread, or makes sure the store still holds it; waits for whoever is
     * applying it.
     */
    void takeNow() {
        dirty = true;
        lock.lock();
        applyWhileDirty(true);
    }

    /** Brings the reservation in step with the current answer, unless someone else is doing so: never blocks. */
    void update() {
        dirty = true;
        if (lock.tryLock()) {
            applyWhileDirty(false);
        }
    }

    /** Gives the reservation back for good, whatever the watchdog still holds: it renews nothing any more. */
    void end() {
        lock.lock();
        try {
            if (applied) {
                apply(false);
            }
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * Applies the current answer while the state keeps changing; called holding the lock, which it gives back.
     *
     * @param refresh whether to ask the store for the reservation again even if it was applied already
     */
    private void applyWhileDirty(boolean refresh) {
        boolean again = refresh;
        do {
            try {
                dirty = false;
                boolean wanted = needed.getAsBoolean();
                if (wanted != applied || (wanted && again)) {
                    apply(wanted);
                }
                again = false;
            }
            finally {
                lock.unlock();
            }
        }
        while (dirty && lock.tryLock());
    }

    private void apply(boolean wanted) {
        if (capacity == null) {
            applied = wanted;
            return;
        }
        try {
            capacity.reserveForRenewals(this, wanted);
            applied = wanted;
        }
        catch (RuntimeException ex) {
            logger.warn("Could not {} for lease renewals: {}", wanted ? "reserve capacity" : "give back the capacity "
                    + "reserved", NestedExceptionUtils.getMostSpecificCause(ex).toString());
        }
    }
}
