package io.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place lock events are told: every {@link LockObserver} and {@link LeaseLostListener} is called from here,
 * each guarded so that a failing one is logged and the others are still told.
 */
final class LockEvents {

    private static final Logger logger = LoggerFactory.getLogger(Lease.class);

    private final List<LeaseLostListener> lostListeners;

    private final List<LockObserver> observers;

    LockEvents(List<LeaseLostListener> lostListeners, List<LockObserver> observers) {
        this.lostListeners = List.copyOf(lostListeners);
        this.observers = List.copyOf(observers);
    }

    void acquired(String label, Lease lease, Duration elapsed) {
        notifyObservers(observer -> observer.acquired(label, lease, elapsed));
    }

    void held(String label, String resource, Duration elapsed) {
        notifyObservers(observer -> observer.held(label, resource, elapsed));
    }

    void acquireFailed(String label, String resource, Duration elapsed, RuntimeException error) {
        notifyObservers(observer -> observer.acquireFailed(label, resource, elapsed, error));
    }

    void renewed(Lease lease) {
        notifyObservers(observer -> observer.renewed(lease));
    }

    void renewalFailed(Lease lease, RuntimeException error) {
        notifyObservers(observer -> observer.renewalFailed(lease, error));
    }

    void released(Lease lease, Duration held) {
        notifyObservers(observer -> observer.released(lease, held));
    }

    void slotRan(String label, Instant slot, SlotRunOutcome outcome) {
        notifyObservers(observer -> observer.slotRan(label, slot, outcome));
    }

    void slotSkipped(String label, Instant slot, SlotOutcome.Status why) {
        notifyObservers(observer -> observer.slotSkipped(label, slot, why));
    }

    void slotsMissed(String label, MissedSlots missed) {
        notifyObservers(observer -> observer.slotsMissed(label, missed));
    }

    void slotTooEarly(String label, Instant slot, Duration ahead) {
        notifyObservers(observer -> observer.slotTooEarly(label, slot, ahead));
    }

    void slotCrashed(String label, Instant slot) {
        notifyObservers(observer -> observer.slotCrashed(label, slot));
    }

    /** Logs the loss at WARN, then tells the lease's own listeners, the manager's listeners and the observers. */
    void lost(Lease lease, String reason, List<LeaseLostListener> leaseListeners) {
        logger.warn("Lost the lock on '{}' (owner {}, token {}): {}", lease.resource(),
                OwnerFingerprint.of(lease.owner()), lease.token(), reason);
        leaseListeners.forEach(listener -> tellLost(listener, lease, reason));
        lostListeners.forEach(listener -> tellLost(listener, lease, reason));
        notifyObservers(observer -> observer.lost(lease, reason));
    }

    private static void tellLost(LeaseLostListener listener, Lease lease, String reason) {
        try {
            listener.leaseLost(lease, reason);
        }
        catch (RuntimeException ex) {
            logger.warn("Lease-lost listener {} failed", listener, ex);
        }
    }

    private void notifyObservers(Consumer<LockObserver> event) {
        for (LockObserver observer : observers) {
            try {
                event.accept(observer);
            }
            catch (RuntimeException ex) {
                logger.warn("Lock observer {} failed", observer, ex);
            }
        }
    }
}
