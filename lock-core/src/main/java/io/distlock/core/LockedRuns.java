package io.distlock.core;

import java.util.Optional;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The policy of {@link LockManager#runLocked} in one place: acquire (or join the lease of an enclosing call on the
 * same resource and thread), keep the lease alive, run the work with the lease bound to the thread, release honouring
 * the minimum hold, and report how it ended, as outcome and as observations. Logs under the manager's name.
 */
final class LockedRuns {

    private static final Logger logger = LoggerFactory.getLogger(LockManager.class);

    private final LeaseRegistry host;

    private final Acquisitions acquisitions;

    private final boolean interruptOnLoss;

    private final LockObservations observations;

    LockedRuns(LeaseRegistry host, Acquisitions acquisitions, boolean interruptOnLoss,
            LockObservations observations) {
        this.host = host;
        this.acquisitions = acquisitions;
        this.interruptOnLoss = interruptOnLoss;
        this.observations = observations;
    }

    <T, E extends Throwable> LockOutcome<T> run(LockRequest request, LockedWork<T, E> work) throws E {
        Observation observation = observations.start(request);
        try (Observation.Scope scope = observation.openScope()) {
            LockOutcome<T> outcome = runObserved(request, work, observation);
            LockObservations.end(observation, switch (outcome.status()) {
                case RAN -> "ran";
                case NOT_ACQUIRED -> "not-acquired";
                case LOST -> "lost";
            });
            return outcome;
        }
        catch (Throwable ex) {
            observation.error(ex);
            LockObservations.end(observation, "error");
            throw ex;
        }
    }

    private <T, E extends Throwable> LockOutcome<T> runObserved(LockRequest request, LockedWork<T, E> work,
            Observation observation) throws E {
        Lease enclosing = LeaseScope.enclosing(host, request.resource());
        if (enclosing != null) {
            return LockOutcome.ran(LeaseScope.callWith(enclosing, work), null);
        }
        Optional<Lease> acquired;
        try {
            acquired = acquisitions.acquire(request);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return LockOutcome.notAcquired();
        }
        if (acquired.isEmpty()) {
            return LockOutcome.notAcquired();
        }
        Lease lease = acquired.get();
        LossInterrupter interrupter = interruptOnLoss ? new LossInterrupter() : null;
        if (interrupter != null) {
            lease.onLost(interrupter);
        }
        Observation held = observations.startHeld(observation, request, lease);
        T value;
        try (Observation.Scope scope = held.openScope()) {
            value = LeaseScope.callWith(lease, work);
        }
        catch (Throwable ex) {
            held.error(ex);
            held.stop();
            LockLostException loss = finish(lease, interrupter);
            if (loss != null) {
                ex.addSuppressed(loss);
            }
            throw ex;
        }
        held.stop();
        return LockOutcome.ran(value, finish(lease, interrupter));
    }

    /** Ends guarded work: stops interrupting, releases the lease, and says whether it was lost. */
    private static @Nullable LockLostException finish(Lease lease, @Nullable LossInterrupter interrupter) {
        if (interrupter != null) {
            interrupter.workEnded();
        }
        try {
            lease.release();
        }
        catch (RuntimeException ex) {
            logger.warn("Could not release the lock on '{}' (owner {}); it expires by itself at {}", lease.resource(),
                    OwnerFingerprint.of(lease.owner()), lease.expiresAt(), ex);
        }
        if (!lease.isLost()) {
            return null;
        }
        try {
            lease.checkHeld();
            return null;
        }
        catch (LockLostException ex) {
            return ex;
        }
    }
}
