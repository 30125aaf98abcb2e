package io.distlock.core;

import java.time.Instant;

/**
 * The slot a run is for, handed to the work and bound to the thread while it runs ({@link #current()}).
 *
 * @param job the job
 * @param slot the scheduled fire time the run is for
 * @param run 1, or 2 for a re-run after a crash
 * @param catchUp whether this is the catch-up run for missed slots, before the slot at hand
 * @param lease the job's lease
 */
public record SlotExecution(String job, Instant slot, int run, boolean catchUp, Lease lease) {

    private static final ThreadLocal<SlotExecution> CURRENT = new ThreadLocal<>();

    /**
     * The slot run on this thread, for code that runs inside once-per-slot work (a {@code @Scheduled} method takes no
     * parameters).
     *
     * @return the execution, or empty outside once-per-slot work
     */
    public static java.util.Optional<SlotExecution> current() {
        return java.util.Optional.ofNullable(CURRENT.get());
    }

    <T, E extends Throwable> T bound(LockedWork<T, E> work) throws E {
        SlotExecution previous = CURRENT.get();
        CURRENT.set(this);
        try {
            return work.run(lease);
        }
        finally {
            if (previous == null) {
                CURRENT.remove();
            }
            else {
                CURRENT.set(previous);
            }
        }
    }
}
