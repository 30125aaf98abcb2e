package io.distlock.torture;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The faults the controller can inject.
 */
enum Fault {

    /** {@code kill -9} a worker that holds a lock, then start a replacement. */
    KILL,

    /** {@code SIGSTOP} a worker that holds a lock for longer than the TTL, then {@code SIGCONT}. */
    PAUSE,

    /**
     * Cut a lock holder's connections to the lock store: its database sessions (on H2: restart the TCP server,
     * cutting every session), or on Redis its client connections.
     */
    DISCONNECT,

    /** Offset every worker's application clock by up to ±5 minutes; harmless in database-time mode. */
    SKEW,

    /**
     * Make a lock holder's guarded sections each hold a pooled connection in an open transaction for longer than the
     * TTL, so that its guarded work holds every connection of its pool but the one kept for lease renewals.
     */
    POOL,

    /**
     * Hold lock rows with {@code SELECT … FOR UPDATE} in an open transaction of the controller's own for longer than
     * the TTL, one of them a lock held by a worker, then commit.
     */
    ROWLOCK;

    /** The faults of the locks workload on a database. */
    static final String JDBC_DEFAULTS = "kill,pause,disconnect,skew,pool,rowlock";

    /** The faults of the locks workload on Redis. */
    static final String REDIS_DEFAULTS = "kill,pause,disconnect";

    /** The faults of the slots workload. */
    static final String SLOTS_DEFAULTS = "kill,pause";

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a comma-separated list such as {@code kill,pause,disconnect,skew,pool,rowlock}; {@code none} or empty
     * means none.
     */
    static Set<Fault> parseList(String list) {
        EnumSet<Fault> faults = EnumSet.noneOf(Fault.class);
        for (String part : list.split(",")) {
            String name = part.strip().toUpperCase(Locale.ROOT);
            if (name.isEmpty() || name.equals("NONE")) {
                continue;
            }
            try {
                faults.add(Fault.valueOf(name));
            }
            catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("Unknown fault '" + part.strip()
                        + "'; choose from kill, pause, disconnect, skew, pool, rowlock (comma-separated) or none");
            }
        }
        return faults;
    }
}
