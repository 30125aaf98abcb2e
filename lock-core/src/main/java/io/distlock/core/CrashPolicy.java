package io.distlock.core;

/**
 * What happens to a scheduled slot whose run never finished because its holder died (its lease ran out mid-run).
 */
public enum CrashPolicy {

    /**
     * The slot counts as done: it is not run again. The crash is recorded and told when the next slot is claimed.
     * The default, because a run that crashed after its side effects would otherwise run them twice.
     */
    AT_MOST_ONCE,

    /**
     * Another replica runs the slot again, once, after the lease of the crashed run expired, as long as the slot is
     * still the latest one. A run that crashed after its side effects then ran twice: its writes must be idempotent
     * or fenced.
     */
    AT_LEAST_ONCE
}
