package io.distlock.sample;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.springframework.stereotype.Component;

/**
 * Prints one line per job outcome on standard output, in a form the demo script reads:
 * {@code EXECUTED}, {@code SKIPPED} and {@code FENCED}.
 */
@Component
public class JobConsole {

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
     * Another replica held the job's lock.
     *
     * @param job the job's name
     * @param slot the scheduled fire time
     */
    public void skipped(String job, Instant slot) {
        print("SKIPPED job=" + job + " slot=" + format(slot) + " replica=" + replica);
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

    /**
     * The scheduled fire time of a job that fires every {@code periodSeconds}, from the current time.
     *
     * @param periodSeconds the job's period
     * @return the fire time this run belongs to, truncated to the second
     */
    public static Instant slot(int periodSeconds) {
        long now = Instant.now().getEpochSecond();
        return Instant.ofEpochSecond(now - Math.floorMod(now, periodSeconds));
    }

    private static String format(Instant slot) {
        return slot.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static synchronized void print(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
