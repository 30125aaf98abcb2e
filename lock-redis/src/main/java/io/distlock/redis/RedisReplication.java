package io.distlock.redis;

import java.time.Duration;

/**
 * What the Redis server says about its replication ({@code INFO replication}), and whether the store's acquisitions
 * and renewals wait for replicas to acknowledge them.
 *
 * @param role the server's role: {@code master} for a primary, {@code slave} for a replica
 * @param connectedReplicas replicas connected to it
 * @param replicasToAcknowledge replicas each acquisition and renewal waits for, 0 when they do not wait
 * @param acknowledgementTimeout longest wait for them
 */
public record RedisReplication(String role, int connectedReplicas, int replicasToAcknowledge,
        Duration acknowledgementTimeout) {

    /**
     * Whether acquisitions and renewals wait for replicas.
     *
     * @return {@code true} when {@code replicasToAcknowledge > 0}
     */
    public boolean waitsForReplicas() {
        return replicasToAcknowledge > 0;
    }

    /**
     * Whether the server has fewer connected replicas than acquisitions wait for: every acquisition is then refused.
     *
     * @return {@code true} when waiting for more replicas than are connected
     */
    public boolean missingReplicas() {
        return replicasToAcknowledge > connectedReplicas;
    }

    /**
     * The mode in one line, as the start-up log and the health details say it.
     *
     * @return the description
     */
    public String describe() {
        String server = "Redis " + role + " with " + connectedReplicas + " connected replica(s)";
        if (waitsForReplicas()) {
            return server + "; acquisitions and renewals wait for " + replicasToAcknowledge + " replica(s) to "
                    + "acknowledge them (at most " + acknowledgementTimeout + ") and are refused otherwise";
        }
        return server + "; acquisitions and renewals do not wait for replicas"
                + (connectedReplicas > 0 ? ": a failover can lose acknowledged acquisitions and give a lock two "
                        + "owners (distributed-lock.redis.replicas-to-acknowledge)" : "");
    }
}
