package io.distlock.spring.slot;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

import org.junit.jupiter.api.Test;

import org.springframework.scheduling.support.CronExpression;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The slot of a run is the trigger's latest fire time at or just before the moment the run starts: an instant, the
 * same on every replica, across daylight-saving transitions too.
 */
class SlotTriggerTests {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static SlotTrigger.Cron cron(String expression, ZoneId zone) {
        return new SlotTrigger.Cron(CronExpression.parse(expression), expression, zone);
    }

    @Test
    void aCronRunIsLabelledWithItsFireTimeWhetherItStartsOnTimeLateOrJustEarly() {
        SlotTrigger.Cron everyFiveMinutes = cron("0 */5 * * * *", ZoneId.of("UTC"));
        Instant fire = Instant.parse("2026-12-01T10:05:00Z");
        assertThat(everyFiveMinutes.slotAt(fire)).isEqualTo(fire);
        assertThat(everyFiveMinutes.slotAt(fire.plusSeconds(299))).as("late, before the next").isEqualTo(fire);
        assertThat(everyFiveMinutes.slotAt(fire.minusMillis(40))).as("a timer firing early").isEqualTo(fire);
        assertThat(everyFiveMinutes.slotAt(fire.minusSeconds(1))).isEqualTo(fire.minusSeconds(300));
    }

    @Test
    void aMonthlyCronFindsItsSlotLongAfterItFired() {
        SlotTrigger.Cron monthly = cron("0 0 3 1 * *", ZoneId.of("UTC"));
        assertThat(monthly.slotAt(Instant.parse("2026-12-20T00:00:00Z"))).isEqualTo(Instant.parse("2026-12-01T03:00:00Z"));
    }

    @Test
    void aSkippedLocalHourInSpringGivesTheInstantsTheSchedulerFiresAt() {
        // 2026-03-29 02:00 to 03:00 does not exist in Berlin; every 30 minutes in local time.
        SlotTrigger.Cron halfHourly = cron("0 0/30 * * * *", BERLIN);
        Instant beforeGap = Instant.parse("2026-03-29T00:30:00Z"); // 01:30 CET
        Instant afterGap = halfHourly.next(beforeGap);
        assertThat(afterGap).isEqualTo(CronExpression.parse("0 0/30 * * * *").next(beforeGap.atZone(BERLIN)).toInstant());
        assertThat(Duration.between(beforeGap, afterGap)).isEqualTo(Duration.ofMinutes(30));
        assertThat(halfHourly.slotAt(afterGap.plusSeconds(5))).isEqualTo(afterGap);
        assertThat(halfHourly.slotAt(afterGap.minusSeconds(5))).isEqualTo(beforeGap);
    }

    @Test
    void aRepeatedLocalHourInAutumnGivesDistinctInstantsForEachFire() {
        // 2026-10-25 02:00 to 03:00 happens twice in Berlin (CEST, then CET).
        SlotTrigger.Cron halfHourly = cron("0 0/30 * * * *", BERLIN);
        Instant first = Instant.parse("2026-10-25T00:00:00Z"); // 02:00 CEST
        Instant next = halfHourly.next(first);
        Instant afterThat = halfHourly.next(next);
        assertThat(next).isAfter(first);
        assertThat(afterThat).isAfter(next);
        assertThat(halfHourly.slotAt(next)).isEqualTo(next);
        assertThat(halfHourly.slotAt(afterThat.minusSeconds(1))).isEqualTo(next);
        // Whatever the expression does with the repeated hour, the slots follow the scheduler's own fire times.
        java.time.ZonedDateTime spring = CronExpression.parse("0 0/30 * * * *").next(first.atZone(BERLIN));
        assertThat(next).isEqualTo(spring.toInstant());
    }

    @Test
    void aFixedRateIsCutIntoWindowsAlignedToTheEpoch() {
        SlotTrigger.FixedRate everyTenSeconds = new SlotTrigger.FixedRate(Duration.ofSeconds(10));
        assertThat(everyTenSeconds.slotAt(Instant.parse("2026-12-01T10:00:07.300Z")))
                .isEqualTo(Instant.parse("2026-12-01T10:00:00Z"));
        assertThat(everyTenSeconds.slotAt(Instant.parse("2026-12-01T10:00:09.950Z")))
                .as("just early").isEqualTo(Instant.parse("2026-12-01T10:00:10Z"));
        assertThat(everyTenSeconds.next(Instant.parse("2026-12-01T10:00:00Z")))
                .isEqualTo(Instant.parse("2026-12-01T10:00:10Z"));
    }
}
