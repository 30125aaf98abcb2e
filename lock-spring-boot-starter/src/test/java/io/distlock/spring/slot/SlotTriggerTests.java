package io.distlock.spring.slot;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

import org.junit.jupiter.api.Test;

import org.springframework.scheduling.support.CronExpression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

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
    void atLordHowesHalfHourFallBackAnHourlyCronMovesOnInsteadOfHangingTheScheduler() {
        // 2026-04-05 02:00 LHDT (+11) falls back to 01:30 LHST (+10:30); Spring's next(01:00:01+11) answers 01:00+11.
        SlotTrigger.Cron hourly = cron("0 0 * * * *", ZoneId.of("Australia/Lord_Howe"));
        Instant stuck = Instant.parse("2026-04-04T14:00:00Z");
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertThat(hourly.next(stuck)).isEqualTo(Instant.parse("2026-04-04T15:30:00Z"));
            assertThat(hourly.next(stuck.plusSeconds(1))).isEqualTo(Instant.parse("2026-04-04T15:30:00Z"));
            assertThat(hourly.slotAt(stuck.plusSeconds(1800))).isEqualTo(stuck);
            assertThat(hourly.slotAt(Instant.parse("2026-04-04T15:30:00Z"))).isEqualTo(Instant.parse("2026-04-04T15:30:00Z"));
        });
    }

    @Test
    void atChathamsFallBackAQuarterHourlyCronGivesEveryQuarterOfTheHourBeforeIt() {
        // 2026-04-05 03:45 CHADT (+13:45) falls back to 02:45 CHAST (+12:45) at 14:00Z; Spring's next(02:45+13:45)
        // answers 02:00+13:45, three quarters of an hour back.
        SlotTrigger.Cron quarterly = cron("0 */15 * * * *", ZoneId.of("Pacific/Chatham"));
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            java.util.List<Instant> fires = new java.util.ArrayList<>();
            for (Instant at = Instant.parse("2026-04-04T12:50:00Z"); fires.size() < 5; ) {
                at = quarterly.next(at);
                fires.add(at);
            }
            assertThat(fires).containsExactly(Instant.parse("2026-04-04T13:00:00Z"), Instant.parse("2026-04-04T13:15:00Z"),
                    Instant.parse("2026-04-04T13:30:00Z"), Instant.parse("2026-04-04T13:45:00Z"),
                    Instant.parse("2026-04-04T15:00:00Z"));
            assertThat(quarterly.slotAt(Instant.parse("2026-04-04T13:20:00Z"))).isEqualTo(Instant.parse("2026-04-04T13:15:00Z"));
        });
    }

    @Test
    void aFixedRateSlotIsKeptToTheMillisecondAndCountsItsPeriod() {
        SlotTrigger.FixedRate everySecond = new SlotTrigger.FixedRate(Duration.ofSeconds(1));
        assertThat(everySecond.slotAt(Instant.parse("2026-12-01T10:00:07.000123456Z")))
                .isEqualTo(Instant.parse("2026-12-01T10:00:07Z"));
        assertThat(everySecond.period()).isEqualTo(Duration.ofSeconds(1));
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
