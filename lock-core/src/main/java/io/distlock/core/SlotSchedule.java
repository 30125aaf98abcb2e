package io.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The fire times of a job's trigger, so that slots missed between two claims can be named: a cron expression with
 * its zone, or a fixed period aligned to the epoch ({@link #fixedRate}). Fire times must move forward: a schedule
 * whose {@link #next} answers a time not after the one it was given stops the count of missed slots there.
 */
@FunctionalInterface
public interface SlotSchedule {

    /**
     * The first fire time after an instant.
     *
     * @param after the instant
     * @return the next fire time, strictly after {@code after}, or {@code null} when the trigger fires no more
     */
    @Nullable Instant next(Instant after);

    /**
     * The fixed time between consecutive fire times, when there is one: missed slots are then counted by arithmetic
     * rather than one by one.
     *
     * @return the period, or {@code null} (the default) when fire times are not evenly spaced
     */
    default @Nullable Duration period() {
        return null;
    }

    /**
     * Slots every {@code period}, aligned to the epoch, so that every replica labels them alike whenever it started:
     * the slot of a run is {@code floor(now / period) * period}.
     *
     * @param period the time between slots, a positive whole number of milliseconds
     * @return the schedule
     * @throws IllegalArgumentException when the period is not a positive whole number of milliseconds
     */
    static SlotSchedule fixedRate(Duration period) {
        return new FixedRateSchedule(period);
    }

    /**
     * The epoch-aligned slots of a fixed period.
     *
     * @param period the time between slots
     */
    record FixedRateSchedule(Duration period) implements SlotSchedule {

        public FixedRateSchedule {
            Objects.requireNonNull(period, "period");
            if (period.toMillis() < 1 || period.toNanos() % 1_000_000 != 0) {
                throw new IllegalArgumentException("period must be a positive whole number of milliseconds, got "
                        + period);
            }
        }

        /**
         * The slot a run starting at an instant is for: the latest slot at or before it.
         *
         * @param at the instant
         * @return the slot
         */
        public Instant slotAt(Instant at) {
            long millis = period.toMillis();
            return Instant.ofEpochMilli(Math.floorDiv(at.toEpochMilli(), millis) * millis);
        }

        @Override
        public Instant next(Instant after) {
            long millis = period.toMillis();
            return Instant.ofEpochMilli((Math.floorDiv(after.toEpochMilli(), millis) + 1) * millis);
        }

        @Override
        public String toString() {
            return "fixed rate " + period + " (slots aligned to the epoch)";
        }
    }
}
