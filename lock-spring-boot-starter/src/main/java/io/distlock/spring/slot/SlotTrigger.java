package io.distlock.spring.slot;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;

import io.distlock.core.SlotSchedule;
import org.jspecify.annotations.Nullable;

import org.springframework.scheduling.support.CronExpression;

/**
 * The slots a {@code @Scheduled} trigger defines: the fire times of a cron expression in its zone, or the windows of
 * a fixed rate aligned to the epoch. A run's slot is the latest fire time at or just before the moment it starts on
 * the scheduler's clock, so every replica labels the same slot the same way, whatever its clock says.
 */
sealed interface SlotTrigger extends SlotSchedule {

    /** How early a run may start before its fire time (a scheduler's timer may fire that much ahead of its clock). */
    Duration EARLY = Duration.ofMillis(100);

    /**
     * The slot of a run that starts now.
     *
     * @param now the scheduler's clock
     * @return the latest fire time at or before {@code now} (plus {@link #EARLY})
     */
    Instant slotAt(Instant now);

    /** @return the trigger for messages: {@code cron "0 0 * * * *" in Europe/Berlin} or {@code fixed rate PT5S} */
    String description();

    /**
     * A cron expression in a zone.
     *
     * @param expression the parsed expression
     * @param text the expression as declared
     * @param zone its zone
     */
    record Cron(CronExpression expression, String text, ZoneId zone) implements SlotTrigger {

        @Override
        public Instant slotAt(Instant now) {
            ZonedDateTime target = now.plus(EARLY).atZone(zone);
            Duration back = Duration.ofMinutes(1);
            for (int widen = 0; widen < 24; widen++, back = back.multipliedBy(2)) {
                ZonedDateTime first = expression.next(target.minus(back));
                if (first != null && !first.isAfter(target)) {
                    ZonedDateTime last = first;
                    for (ZonedDateTime next = expression.next(last); next != null && !next.isAfter(target);
                            next = expression.next(last)) {
                        last = next;
                    }
                    return last.toInstant();
                }
            }
            throw new IllegalStateException("The " + description() + " has not fired in the last years before " + now);
        }

        @Override
        public @Nullable Instant next(Instant after) {
            ZonedDateTime next = expression.next(after.atZone(zone));
            return next != null ? next.toInstant() : null;
        }

        @Override
        public String description() {
            return "cron \"" + text + "\" in " + zone;
        }
    }

    /**
     * A fixed rate: slots are the multiples of the period since the epoch, whatever the JVM started at.
     *
     * @param period the rate's period
     */
    record FixedRate(Duration period) implements SlotTrigger {

        @Override
        public Instant slotAt(Instant now) {
            long periodMillis = period.toMillis();
            long at = now.plus(EARLY).toEpochMilli();
            return Instant.ofEpochMilli(Math.floorDiv(at, periodMillis) * periodMillis);
        }

        @Override
        public Instant next(Instant after) {
            long periodMillis = period.toMillis();
            return Instant.ofEpochMilli((Math.floorDiv(after.toEpochMilli(), periodMillis) + 1) * periodMillis);
        }

        @Override
        public String description() {
            return "fixed rate " + period + " (slots aligned to the epoch)";
        }
    }
}
