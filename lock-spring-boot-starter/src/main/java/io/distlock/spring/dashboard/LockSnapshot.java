package io.distlock.spring.dashboard;

import java.time.Instant;
import java.util.List;

import io.distlock.core.LockRecord;
import io.distlock.core.SlotRun;

/**
 * What the lock store answered at one moment: its live locks and its latest slot runs.
 *
 * @param locks the live locks, as the store lists them
 * @param runs the latest runs of every job, newest first
 * @param readAt when the store answered, by this application's clock
 */
record LockSnapshot(List<LockRecord> locks, List<SlotRun> runs, Instant readAt) {

    LockSnapshot {
        locks = List.copyOf(locks);
        runs = List.copyOf(runs);
    }
}
