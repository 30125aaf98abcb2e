package io.distlock.torture;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.Consumer;

/**
 * A slot clock that jumps ahead and back again, as a machine's clock does when it is set wrong and then corrected
 * (an NTP step): it runs at its offset for a while, then that far plus the jump, then at its offset again, and so on.
 * Each jump is told once, when the clock is first read past it.
 */
final class JumpingClock extends Clock {

    private final Duration offset;

    private final Duration jump;

    private final long everyMillis;

    private final Consumer<String> told;

    private final long startMillis = System.currentTimeMillis();

    private long lastPhase = 0;

    /**
     * @param offset the clock's offset from the system clock while it is back
     * @param jump how far it jumps ahead
     * @param every how long it stays ahead, and then back
     * @param told told of every jump, ahead or back
     */
    JumpingClock(Duration offset, Duration jump, Duration every, Consumer<String> told) {
        this.offset = offset;
        this.jump = jump;
        this.everyMillis = every.toMillis();
        this.told = told;
    }

    @Override
    public Instant instant() {
        long now = System.currentTimeMillis();
        long phase = (now - startMillis) / everyMillis;
        boolean ahead = phase % 2 == 1;
        synchronized (this) {
            if (phase != lastPhase) {
                lastPhase = phase;
                told.accept((ahead ? "ahead" : "back") + " jump_ms=" + jump.toMillis());
            }
        }
        return Instant.ofEpochMilli(now).plus(offset).plus(ahead ? jump : Duration.ZERO);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
