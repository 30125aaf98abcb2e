package io.distlock.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;

import org.springframework.core.NestedExceptionUtils;

/**
 * Tells the failures of one repeated operation — a watchdog's renewals, a scheduled method's lock — without flooding
 * the log during an outage: the first failure is one WARN line naming what failed and its cause, the stack trace goes
 * to DEBUG, the failures that follow are summarised in one WARN line at most every {@link #SUMMARY_INTERVAL} (how
 * many, since when, the last cause), and the first success after them is told at INFO.
 */
public final class FailureLog {

    /** The shortest time between two summaries of repeated failures. */
    public static final Duration SUMMARY_INTERVAL = Duration.ofMinutes(1);

    private final Logger logger;

    private final long summaryNanos;

    /** Guarded by {@code this}. */
    private int failures;

    /** Guarded by {@code this}: failures since the first one or the last summary. */
    private int unsummarised;

    /** Guarded by {@code this}. */
    private long firstFailureNanos;

    /** Guarded by {@code this}. */
    private long lastToldNanos;

    /**
     * Creates the log of one operation.
     *
     * @param logger where to tell
     */
    public FailureLog(Logger logger) {
        this(logger, SUMMARY_INTERVAL);
    }

    FailureLog(Logger logger, Duration summaryInterval) {
        this.logger = logger;
        this.summaryNanos = summaryInterval.toNanos();
    }

    /**
     * Tells a failure: at WARN when it is the first since the last success, in a summary at most once per interval
     * after that, and always with its stack trace at DEBUG.
     *
     * @param what what failed, such as {@code Could not renew the lease on 'job'}; no trailing punctuation
     * @param error why
     */
    public void failed(String what, Throwable error) {
        String cause = NestedExceptionUtils.getMostSpecificCause(error).toString();
        long now = System.nanoTime();
        String line = null;
        synchronized (this) {
            failures++;
            if (failures == 1) {
                firstFailureNanos = now;
                lastToldNanos = now;
                line = what + ": " + cause;
            }
            else {
                unsummarised++;
                if (now - lastToldNanos >= summaryNanos) {
                    line = what + ": " + unsummarised + " more failures since the last report, " + failures
                            + " in " + seconds(now - firstFailureNanos) + "; the last: " + cause;
                    unsummarised = 0;
                    lastToldNanos = now;
                }
            }
        }
        if (line != null) {
            logger.warn(line);
        }
        logger.debug("{} (stack trace)", what, error);
    }

    /**
     * Tells the first success after failures, at INFO, and starts over.
     *
     * @param what what works again, such as {@code Lease renewal}
     */
    public void succeeded(String what) {
        int failed;
        long since;
        synchronized (this) {
            failed = failures;
            since = System.nanoTime() - firstFailureNanos;
            failures = 0;
            unsummarised = 0;
        }
        if (failed > 0) {
            logger.info("{} works again after {} {} in {}", what, failed, failed == 1 ? "failure" : "failures",
                    seconds(since));
        }
    }

    /**
     * How many failures came since the last success.
     *
     * @return the count
     */
    public synchronized int failures() {
        return failures;
    }

    private static String seconds(long nanos) {
        return TimeUnit.NANOSECONDS.toSeconds(nanos) + " s";
    }
}
