package io.distlock.torture;

import java.util.Locale;

/**
 * What the workers do, each workload in tables of its own, so that a run of one never disturbs a run of the other.
 */
enum Workload {

    /** Threads take shared locks and run critical sections on an unfenced counter and a fenced ledger. */
    LOCKS(TortureSchema.LOCKS, TortureSchema.SESSIONS),

    /**
     * Every worker runs the same jobs once per two-second slot through {@code LockManager.runOncePerSlot}, each by a
     * slot clock of its own, offset by up to ±3 s, and records every run it starts.
     */
    SLOTS(TortureSchema.SLOT_LOCKS, TortureSchema.SLOT_SESSIONS);

    private final String lockTable;

    private final String sessionsTable;

    Workload(String lockTable, String sessionsTable) {
        this.lockTable = lockTable;
        this.sessionsTable = sessionsTable;
    }

    /** @return the lock table the workers share */
    String lockTable() {
        return lockTable;
    }

    /** @return the table of MariaDB session ids per worker, for the disconnect fault */
    String sessionsTable() {
        return sessionsTable;
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    static Workload parse(String name) {
        try {
            return valueOf(name.strip().toUpperCase(Locale.ROOT));
        }
        catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException("Unknown workload '" + name + "'; choose locks or slots");
        }
    }
}
