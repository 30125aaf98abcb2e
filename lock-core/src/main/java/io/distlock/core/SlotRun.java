package io.distlock.core;

import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One run of a job's scheduled slot, as the slot history keeps it.
 *
 * @param job the job (its lock's resource)
 * @param slot the scheduled fire time the run is for
 * @param run 1, or 2 for a re-run after a crash
 * @param owner the owner token of the run's lease
 * @param token the run's fencing token
 * @param startedAt when the slot was claimed (database time)
 * @param finishedAt when the run ended (database time), or {@code null} while running or after a crash
 * @param outcome how the run ended
 */
public record SlotRun(String job, Instant slot, int run, String owner, long token, Instant startedAt,
        @Nullable Instant finishedAt, SlotRunOutcome outcome) {

    /**
     * How many runs of each job the slot history keeps, newest first: a store drops older ones when it records a new
     * run, so the history stays small whatever the job's period.
     */
    public static final int KEPT_PER_JOB = 50;

    public SlotRun {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(slot, "slot");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(outcome, "outcome");
    }
}
