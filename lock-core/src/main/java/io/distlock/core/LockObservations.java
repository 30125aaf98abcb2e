package io.distlock.core;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * The observations of {@link LockManager#runLocked}: {@code distributed.lock.call} spans the whole call (acquiring or
 * joining, the work, the release) and {@code distributed.lock.work} the work under the lease. Their names are not
 * those of any meter of the library: Micrometer's default handler turns each observation into a timer of its name
 * and a long task timer of its name plus {@code .active}, which must not meet {@code LockMetrics}' own
 * {@code distributed.lock.held} timer and {@code distributed.lock.active} gauge. Both nest inside the
 * caller's current observation, such as Spring's {@code tasks.scheduled.execution} of a scheduled job. Low-cardinality
 * key values: {@code lock} (the request's label, such as a resource template) and {@code outcome}
 * ({@code ran}, {@code not-acquired}, {@code lost}, {@code error}); high-cardinality: {@code resource} and
 * {@code token}.
 */
final class LockObservations {

    /** The observation of a whole guarded call. */
    static final String LOCK = "distributed.lock.call";

    /** The observation of the work under a held lease. */
    static final String HELD = "distributed.lock.work";

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
