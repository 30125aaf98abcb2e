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

    /** Terminate a lock holder's database sessions (on H2: restart the TCP server, cutting every session). */
    DISCONNECT,

    /** Offset every worker's application clock by up to ±5 minutes; harmless in database-time mode. */
    SKEW;

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a comma-separated list such as {@code kill,pause,disconnect,skew}; {@code none} or empty means none.
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
                        + "'; choose from kill, pause, disconnect, skew (comma-separated) or none");
            }
        }
        return faults;
    }
}
