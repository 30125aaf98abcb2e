package io.distlock.core;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The bounds the library checks before any statement, at their edges: the last value accepted and the first refused,
 * with a message naming the value.
 */
class BoundsTests {

    @Test
    void watchdogThreadsAreOneToSixtyFour() {
        assertThat(new WatchdogSettings(1, 0.5).threads()).isEqualTo(1);
        assertThat(new WatchdogSettings(64, 0.5).threads()).isEqualTo(64);
        assertThatIllegalArgumentException().isThrownBy(() -> new WatchdogSettings(0, 0.5))
                .withMessage("watchdog threads must be between 1 and 64, got 0");
        assertThatIllegalArgumentException().isThrownBy(() -> new WatchdogSettings(65, 0.5))
                .withMessageContaining("got 65");
    }

    @Test
    void theRenewRatioIsAboveZeroAndAtMostNineTenths() {
        assertThat(new WatchdogSettings(1, 0.9).renewRatio()).isEqualTo(0.9);
        assertThat(new WatchdogSettings(1, Double.MIN_VALUE).renewRatio()).isEqualTo(Double.MIN_VALUE);
        assertThatIllegalArgumentException().isThrownBy(() -> new WatchdogSettings(1, 0))
                .withMessage("watchdog renew ratio must be above 0 and at most 0.9, got 0.0");
        assertThatIllegalArgumentException().isThrownBy(() -> new WatchdogSettings(1, 0.9000001))
                .withMessageContaining("got 0.9000001");
        assertThatIllegalArgumentException().isThrownBy(() -> new WatchdogSettings(1, Double.NaN))
                .withMessageContaining("NaN");
    }

    @Test
    void namesAreOneToTwoHundredFiftyFiveCharactersAndComeBackUnchanged() {
        String longest = "r".repeat(LockArguments.MAX_NAME_LENGTH);
        assertThat(LockArguments.requireResource(longest)).isSameAs(longest);
        assertThat(LockArguments.requireOwner("o")).isEqualTo("o");
        assertThatIllegalArgumentException().isThrownBy(() -> LockArguments.requireResource(longest + "r"))
                .withMessageStartingWith("resource must be at most 255 characters, got 256");
        assertThatIllegalArgumentException().isThrownBy(() -> LockArguments.requireOwner(" "))
                .withMessage("owner must not be blank, got ' '");
    }

    @Test
    void ttlsAreAtLeastAMillisecondAndAtMostTheMaximum() {
        Duration max = Duration.ofDays(1);
        assertThat(LockArguments.requireTtl(Duration.ofMillis(1), max)).isEqualTo(Duration.ofMillis(1));
        assertThat(LockArguments.requireTtl(max, max)).isEqualTo(max);
        assertThatIllegalArgumentException().isThrownBy(() -> LockArguments.requireTtl(Duration.ZERO, max))
                .withMessageContaining("ttl");
        assertThatIllegalArgumentException().isThrownBy(() -> LockArguments.requireTtl(max.plusMillis(1), max))
                .withMessageContaining("ttl");
    }
}
