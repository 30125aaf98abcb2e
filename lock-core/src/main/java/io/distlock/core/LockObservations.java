package io.distlock.core;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * The observations of {@link LockManager#runLocked}: {@code distributed.lock} spans the whole call (acquiring or
 * joining, the work, the release) and {@code distributed.lock.held} the work under the lease. Both nest inside the
 * caller's current observation, such as Spring's {@code tasks.scheduled.execution} of a scheduled job. Low-cardinality
 * key values: {@code lock} (the request's label, such as a resource template) and {@code outcome}
 * ({@code ran}, {@code not-acquired}, {@code lost}, {@code error}); high-cardinality: {@code resource} and
 * {@code token}.
 */
final class LockObservations {

    /** The observation of a whole guarded call. */
    static final String LOCK = "distributed.lock";

    /** The observation of the work under a held lease. */
    static final String HELD = "distributed.lock.held";

    private final ObservationRegistry registry;

    LockObservations(ObservationRegistry registry) {
        this.registry = registry;
    }

    Observation start(LockRequest request) {
        return Observation.createNotStarted(LOCK, registry)
                .contextualName("lock " + request.label())
                .lowCardinalityKeyValue("lock", request.label())
                .highCardinalityKeyValue("resource", request.resource())
                .start();
    }

    Observation startHeld(Observation parent, LockRequest request, Lease lease) {
        parent.highCardinalityKeyValue("token", Long.toString(lease.token()));
        return Observation.createNotStarted(HELD, registry)
                .contextualName("hold " + request.label())
                .parentObservation(parent)
                .lowCardinalityKeyValue("lock", request.label())
                .highCardinalityKeyValue("resource", request.resource())
                .highCardinalityKeyValue("token", Long.toString(lease.token()))
                .start();
    }

    static void end(Observation observation, String outcome) {
        observation.lowCardinalityKeyValue("outcome", outcome).stop();
    }
}
