package io.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slots of a job that no replica ran between two claimed slots: how many, the first and the last. They are
 * counted, never listed, so an outage of an every-second job for a day costs a number, not 86,400 instants.
 *
 * <p>The count is exact for schedules with a {@linkplain SlotSchedule#period() fixed period}, whatever the gap, and
 * for other schedules (cron) up to {@value #MAX_COUNTED} missed slots, almost three days of an every-second cron
 * (counting them one by one costs well under a second); beyond that the count is a lower bound and {@link #exact()}
 * is {@code false}. The first and the last are always exact.
 *
 * @param count how many slots were missed
 * @param first the earliest missed slot, or {@code null} when none was
 * @param last the latest missed slot, or {@code null} when none was
 * @param exact whether {@code count} is exact rather than a lower bound
 */
public record MissedSlots(long count, @Nullable Instant first, @Nullable Instant last, boolean exact) {

    /** No slot missed. */
    public static final MissedSlots NONE = new MissedSlots(0, null, null, true);

    /** The most fire times of a schedule without a fixed period that are counted one by one. */
    static final int MAX_COUNTED = 250_000;

    private static final Logger logger = LoggerFactory.getLogger(MissedSlots.class);

    public MissedSlots {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative, got " + count);
        }
        if ((count == 0) != (first == null) || (first == null) != (last == null)) {
            throw new IllegalArgumentException("first and last are given exactly when slots were missed, got count "
                    + count + ", first " + first + ", last " + last);
        }
        if (first != null && last != null && (last.isBefore(first) || (count == 1) != first.equals(last))) {
            throw new IllegalArgumentException("first " + first + " and last " + last + " do not fit count " + count);
        }
    }

    /**
     * Whether no slot was missed.
     *
     * @return {@code true} when the count is zero
     */
    public boolean isEmpty() {
        return count == 0;
    }

    /**
     * The fire times of a schedule strictly between two slots, at the stores' precision: fire times are compared
     * truncated to milliseconds, as slots are kept.
     *
     * @param schedule the job's fire times
     * @param previous the slot claimed before
     * @param slot the slot claimed now
     * @return the slots missed in between
     */
    public static MissedSlots between(SlotSchedule schedule, Instant previous, Instant slot) {
        Duration period = schedule.period();
        boolean periodic = period != null && period.toMillis() > 0 && period.toNanos() % 1_000_000 == 0;
        long count = 0;
        Instant first = null;
        Instant last = previous;
        for (Instant raw = schedule.next(previous); raw != null; raw = advance(schedule, raw)) {
            Instant at = millis(raw);
            if (!at.isBefore(slot)) {
                break;
            }
            if (!at.isAfter(last)) {
                continue;
            }
            if (first == null && periodic) {
                long missed = Math.floorDiv(Duration.between(at, slot).toMillis() - 1, period.toMillis()) + 1;
                return new MissedSlots(missed, at, at.plusMillis((missed - 1) * period.toMillis()), true);
            }
            first = first != null ? first : at;
            last = at;
            if (++count == MAX_COUNTED) {
                Instant latest = latestBefore(schedule, at, slot);
                return latest == null ? new MissedSlots(count, first, last, true)
                        : new MissedSlots(count, first, latest, false);
            }
        }
        return first == null ? NONE : new MissedSlots(count, first, last, true);
    }

    /** The latest fire time strictly between {@code after} and {@code before}, searching back from the end. */
    private static @Nullable Instant latestBefore(SlotSchedule schedule, Instant after, Instant before) {
        for (Duration back = Duration.ofMinutes(1);; back = back.multipliedBy(2)) {
            Instant from = before.minus(back).isAfter(after) ? before.minus(back) : after;
            Instant latest = null;
            for (Instant raw = schedule.next(from); raw != null && millis(raw).isBefore(before);
                    raw = advance(schedule, raw)) {
                latest = millis(raw);
            }
            if (latest != null || from.equals(after)) {
                return latest;
            }
        }
    }

    /** The fire time after {@code at}, or {@code null} when the schedule ends or does not move forward. */
    private static @Nullable Instant advance(SlotSchedule schedule, Instant at) {
        Instant next = schedule.next(at);
        if (next != null && !next.isAfter(at)) {
            logger.warn("The schedule {} answered {} as the fire time after {}; missed slots are counted up to there",
                    schedule, next, at);
            return null;
        }
        return next;
    }

    private static Instant millis(Instant at) {
        return at.truncatedTo(ChronoUnit.MILLIS);
    }

    /**
     * For messages: {@code 3599 slots from 2026-05-01T10:00:01Z to 2026-05-01T10:59:59Z}.
     *
     * @return the count, first and last
     */
    @Override
    public String toString() {
        if (count == 0) {
            return "no slot";
        }
        String counted = (exact ? "" : "more than ") + count + (count == 1 ? " slot" : " slots");
        return count == 1 ? counted + " (" + first + ")" : counted + " from " + first + " to " + last;
    }

    /**
     * The slot a catch-up run is for: the latest missed one.
     *
     * @return the last missed slot
     * @throws IllegalStateException when none was missed
     */
    Instant latest() {
        return Objects.requireNonNull(last, "no slot was missed");
    }
}
