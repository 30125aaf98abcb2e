package io.distlock.spring.dashboard;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The events ring keeps the latest events only, counts what it dropped, and counts a repeated event on the one
 * already kept instead of letting it push the others out.
 */
class DashboardEventsTests {

    private final DashboardEvents events = new DashboardEvents(3,
            Clock.fixed(Instant.parse("2026-05-01T10:00:00Z"), ZoneOffset.UTC));

    @Test
    void keepsTheLatestEventsNewestFirstAndCountsTheDropped() {
        for (int i = 1; i <= 5; i++) {
            events.refused("ledger:" + i, i);
        }
        DashboardEvents.View view = events.view();
        assertThat(view.capacity()).isEqualTo(3);
        assertThat(view.dropped()).isEqualTo(2);
        assertThat(view.items()).extracting(DashboardEvents.Shown::subject)
            .containsExactly("ledger:5", "ledger:4", "ledger:3");
        assertThat(view.items().get(0).kind()).isEqualTo("fenced-write-refused");
        assertThat(view.items().get(0).message()).contains("Refused a write to 'ledger:5' with token 5");
    }

    @Test
    void aRepeatedEventIsCountedOnTheOneKept() {
        events.declarationWarning("first");
        for (int i = 0; i < 100; i++) {
            events.slotTooEarly("report", Instant.parse("2026-05-01T10:00:00Z"), java.time.Duration.ofSeconds(3));
        }
        DashboardEvents.View view = events.view();
        assertThat(view.items()).hasSize(2);
        assertThat(view.items().get(0).count()).isEqualTo(100);
        assertThat(view.items().get(1).kind()).isEqualTo("startup-warning");
        assertThat(view.dropped()).isZero();
    }

    @Test
    void longMessagesAreCut() {
        events.add(DashboardEvents.Kind.STORE_ERROR, "job", "x".repeat(10_000));
        assertThat(events.view().items().get(0).message()).hasSize(600).endsWith("…");
    }
}
