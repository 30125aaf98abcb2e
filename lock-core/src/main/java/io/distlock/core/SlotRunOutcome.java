package io.distlock.core;

/**
 * How a claimed slot's run ended, as recorded in the slot history.
 */
public enum SlotRunOutcome {

    /** Claimed and running, or its holder stopped without a word (see {@link #CRASHED}). */
    RUNNING,

    /** The work returned with its lease held throughout. */
    SUCCEEDED,

    /** The work threw. */
    FAILED,

    /** The work returned, but its lease was found lost before the end: another owner may have run beside it. */
    LOST,

    /** The run never finished: its holder stopped, and a later claim found the slot still running. */
    CRASHED
}
