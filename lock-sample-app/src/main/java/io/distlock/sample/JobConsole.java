package io.distlock.sample;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

import io.distlock.core.LockObserver;
import io.distlock.core.SlotOutcome;

import org.springframework.stereotype.Component;

/**
 * Prints one line per job outcome on standard output, in a form the demo script reads: {@code EXECUTED},
 * {@code SKIPPED} and {@code FENCED}. As a {@link LockObserver} of the lock manager it also prints the slots of
 * {@code @OncePerSlot} jobs that were not run here, with the reason.
 */
@Component
public class JobConsole implements LockObserver {

    /** How early a scheduler's timer may fire before its fire time, as {@code @OncePerSlot} allows for. */
    private static final Duration EARLY = Duration.ofMillis(100);

    private final String replica;

    public JobConsole(DemoProperties properties) {
        this.replica = properties.replica();
    }

    /**
     * The job ran here.
     *
     * @param job the job's name
     * @param slot the scheduled fire time
     * @param token the fencing token of the lease it ran under
     */
    public void executed(String job, Instant slot, long token) {
        print("EXECUTED job=" + job + " slot=" + format(slot) + " replica=" + replica + " token=" + token);
    }

    /**
     * The slot was not run here.
     *
     * @param job the job's name
     * @param slot the scheduled fire time
     * @param reason {@code locked} (another replica held the job's lock), {@code already-claimed} (the slot ran
     *     elsewhere) or {@code too-early} (the slot's time has not come by the database's clock: this replica's clock
     *     runs ahead)
     */
    public void skipped(String job, Instant slot, String reason) {
        print("SKIPPED job=" + job + " slot=" + format(slot) + " replica=" + replica + " reason=" + reason);
    }

    /**
     * The protected resource refused this replica's write: a newer lease has written since.
     *
     * @param job the job's name
     * @param token the stale token the write carried
     * @param current the highest token the resource accepted
     */
    public void fenced(String job, long token, long current) {
        print("FENCED job=" + job + " replica=" + replica + " token=" + token + " current=" + current);
    }

    @Override
    public void slotSkipped(String name, Instant slot, SlotOutcome.Status why) {
        skipped(name, slot, why.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }

    @Override
    public void slotTooEarly(String name, Instant slot, Duration ahead) {
        skipped(name, slot, "too-early");
    }

    /**
     * The fire time of a job that fires every {@code period} on the epoch's multiples of it, for a run that starts
     * now on its scheduler's clock.
     *
     * @param clock the scheduler's clock
     * @param period the job's period
     * @return the latest fire time at or just before now
     */
    public static Instant slot(Clock clock, Duration period) {
        long periodMillis = period.toMillis();
        return Instant.ofEpochMilli(Math.floorDiv(clock.millis() + EARLY.toMillis(), periodMillis) * periodMillis);
    }

    private static String format(Instant slot) {
        return slot.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static synchronized void print(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
