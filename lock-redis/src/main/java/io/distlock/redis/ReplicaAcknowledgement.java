package io.distlock.redis;

import java.time.Duration;
import java.util.Objects;

/**
 * How many replicas must acknowledge an acquisition or renewal ({@code WAIT numreplicas timeout}) before the store
 * answers with a lease, and how long it waits for them.
 *
 * @param replicas replicas that must acknowledge, 0 to answer without waiting
 * @param timeout longest wait for them, from 1 ms to {@link #MAX_TIMEOUT}
 */
record ReplicaAcknowledgement(int replicas, Duration timeout) {

    /** Longest wait accepted: below Lettuce's default command timeout of one minute. */
    static final Duration MAX_TIMEOUT = Duration.ofSeconds(30);

    /** The default wait, as Redisson's. */
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(1);

    static final ReplicaAcknowledgement NONE = new ReplicaAcknowledgement(0, DEFAULT_TIMEOUT);

    ReplicaAcknowledgement {
        Objects.requireNonNull(timeout, "acknowledgementTimeout");
        if (replicas < 0) {
            throw new IllegalArgumentException("replicasToAcknowledge (distributed-lock.redis.replicas-to-acknowledge)"
                    + " must be 0 or more, got " + replicas);
        }
        if (timeout.toMillis() < 1 || timeout.compareTo(MAX_TIMEOUT) > 0) {
            throw new IllegalArgumentException("acknowledgementTimeout (distributed-lock.redis.acknowledgement-timeout)"
                    + " must be from 1 ms to " + MAX_TIMEOUT + ", got " + timeout);
        }
    }

    /** @return whether acquisitions and renewals wait for replicas */
    boolean waits() {
        return replicas > 0;
    }
}
