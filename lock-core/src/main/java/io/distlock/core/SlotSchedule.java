package io.distlock.core;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The fire times of a job's trigger, so that slots missed between two claims can be named: a cron expression with
 * its zone, or a fixed period aligned to the epoch.
 */
@FunctionalInterface
public interface SlotSchedule {

    /**
     * The first fire time after an instant.
     *
     * @param after the instant
     * @return the next fire time, or {@code null} when the trigger fires no more
     */
    @Nullable Instant next(Instant after);
}
