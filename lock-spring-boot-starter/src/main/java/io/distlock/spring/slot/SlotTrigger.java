package io.distlock.spring.slot;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;

import io.distlock.core.SlotSchedule;
import org.jspecify.annotations.Nullable;

import org.springframework.scheduling.support.CronExpression;

/**
 * The slots a {@code @Scheduled} trigger defines: the fire times of a cron expression in its zone, or the windows of
 * a fixed rate aligned to the epoch, or the fire times of several triggers together. A run's slot is the latest fire
 * time at or just before the moment it starts on the scheduler's clock, so every replica labels the same slot the
 * same way, whatever its clock says.
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
     * @param zoneDeclared whether the zone was declared, rather than this JVM's default zone
     */
    record Cron(CronExpression expression, String text, ZoneId zone, boolean zoneDeclared) implements SlotTrigger {

        Cron(CronExpression expression, String text, ZoneId zone) {
            this(expression, text, zone, true);
        }

        @Override
        public Instant slotAt(Instant now) {
            Instant target = now.plus(EARLY);
            Duration back = Duration.ofMinutes(1);
            for (int widen = 0; widen < 24; widen++, back = back.multipliedBy(2)) {
                Instant first = next(target.minus(back));
                if (first != null && !first.isAfter(target)) {
                    Instant last = first;
                    for (Instant next = next(last); next != null && !next.isAfter(target); next = next(last)) {
                        last = next;
                    }
                    return last;
                }
            }
            throw new IllegalStateException("The " + description() + " has not fired in the last years before " + now);
        }

        /**
         * The first fire time strictly after an instant: Spring's answer, the one its scheduler fires at. Around some
         * daylight-saving transitions (Lord Howe's half-hour fall-back, Chatham's at 03:45) Spring's
         * {@link CronExpression#next} answers a time that is not after the one it was given; there the fire time is
         * found at the zone's fixed offset of the moment (or, past the zone's next transition, at the offset after
         * it), where no transition can confuse it. So a slot computation never loops on one instant.
         */
        @Override
        public @Nullable Instant next(Instant after) {
            ZonedDateTime spring = expression.next(after.atZone(zone));
            if (spring == null || spring.toInstant().isAfter(after)) {
                return spring != null ? spring.toInstant() : null;
            }
            ZonedDateTime fixed = expression.next(after.atZone(zone.getRules().getOffset(after)));
            ZoneOffsetTransition transition = zone.getRules().nextTransition(after);
            if (fixed != null && transition != null && !fixed.toInstant().isBefore(transition.getInstant())) {
                fixed = expression.next(transition.getInstant().minusNanos(1).atZone(transition.getOffsetAfter()));
            }
            if (fixed == null || !fixed.toInstant().isAfter(after)) {
                throw new IllegalStateException("The " + description() + " gives no fire time after " + after);
            }
            return fixed.toInstant();
        }

        @Override
        public String description() {
            return "cron \"" + text + "\" in " + zone;
        }
    }

    /**
     * The triggers of a method with several {@code @Scheduled} annotations ({@code @Schedules}): its slots are the
     * fire times of them all, so a run of any of them is labelled with the latest fire time of any, and two triggers
     * that fire at one instant label one slot, which runs once.
     *
     * @param triggers the triggers, two or more
     */
    record AnyOf(java.util.List<SlotTrigger> triggers) implements SlotTrigger {

        public AnyOf {
            triggers = java.util.List.copyOf(triggers);
        }

        @Override
        public Instant slotAt(Instant now) {
            return triggers.stream().map(trigger -> trigger.slotAt(now)).max(Instant::compareTo).orElseThrow();
        }

        @Override
        public @Nullable Instant next(Instant after) {
            return triggers.stream().map(trigger -> trigger.next(after)).filter(java.util.Objects::nonNull)
                    .min(Instant::compareTo).orElse(null);
        }

        @Override
        public String description() {
            return String.join(" or ", triggers.stream().map(SlotTrigger::description).toList());
        }
    }

    /**
     * A fixed rate: slots are the multiples of the period since the epoch, whatever the JVM started at.
     *
     * @param schedule the epoch-aligned slots of the rate's period
     */
    record FixedRate(SlotSchedule.FixedRateSchedule schedule) implements SlotTrigger {

        FixedRate(Duration period) {
            this(new SlotSchedule.FixedRateSchedule(period));
        }

        @Override
        public Instant slotAt(Instant now) {
            return schedule.slotAt(now.plus(EARLY));
        }

        @Override
        public Instant next(Instant after) {
            return schedule.next(after);
        }

        @Override
        public Duration period() {
            return schedule.period();
        }

        @Override
        public String description() {
            return schedule.toString();
        }
    }
}
