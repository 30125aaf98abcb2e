package io.distlock.core;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A store's scheduled slots: each job's last claimed slot, decided with the job's lock, and the history of its runs.
 * What {@link LockManager#runOncePerSlot} needs.
 */
public interface SlotStore {

    /**
     * Claims a scheduled slot of a job whose lock {@code owner} holds: in one decision, only if the slot is later than
     * the job's last claimed slot — or, with {@code rerunUnfinished}, the same slot whose run never finished, claimed
     * by an earlier token, and not run again yet — and only if its time has come by the store's clock (it is not
     * later than the store's time plus {@link SlotRequest#EARLY_TOLERANCE}, else {@link SlotClaim.Status#TOO_EARLY}).
     * A stale or foreign owner claims nothing. The claim and what it records are one transaction: a claim either
     * happened with its history entry, or not at all.
     *
     * @param job the job: the resource of its lock
     * @param owner the owner token that holds the job's lock
     * @param slot the scheduled fire time to claim; stores keep milliseconds, and a finer part is dropped
     * @param rerunUnfinished whether an unfinished run of the same slot may be run again (at-least-once)
     * @return what the claim decided, and what it found of the slot claimed before
     */
    SlotClaim claimSlot(String job, String owner, Instant slot, boolean rerunUnfinished);

    /**
     * Records how the run of a claimed slot ended. Only the run that claimed it (its fencing token) changes anything.
     *
     * @param job the job
     * @param slot the claimed slot
     * @param token the fencing token of the run's lease
     * @param outcome how the run ended
     */
    void finishSlot(String job, Instant slot, long token, SlotRunOutcome outcome);

    /**
     * Checks that the store can keep scheduled slots (for a lock table: its slot columns and slot table exist),
     * failing fast with a message that says how to add them.
     *
     * @throws IllegalStateException when the store's schema lacks them
     */
    void verifySlots();

    /**
     * The latest slot runs, newest first.
     *
     * @param job the job, or {@code null} for every job
     * @param limit how many runs at most (per job when {@code job} is {@code null})
     * @return the runs
     */
    List<SlotRun> recentSlotRuns(@Nullable String job, int limit);

    /**
     * The slot store of a store that must keep slots.
     *
     * @param repository the store
     * @return its slot store
     * @throws UnsupportedOperationException naming the store when it keeps no slots
     */
    static SlotStore of(LockRepository repository) {
        return repository.capability(SlotStore.class).orElseThrow(() -> {
            LockRepository store = repository;
            while (store instanceof DelegatingLockRepository wrapper) {
                store = wrapper.delegate();
            }
            return new UnsupportedOperationException(store.getClass().getSimpleName() + " does not keep scheduled "
                    + "slots");
        });
    }

    /**
     * The latest slot runs of a store, none when it keeps no slots.
     *
     * @param repository the store
     * @param job the job, or {@code null} for every job
     * @param limit how many runs at most (per job when {@code job} is {@code null})
     * @return the runs; empty when the store keeps no slots
     */
    static List<SlotRun> recentRuns(LockRepository repository, @Nullable String job, int limit) {
        return repository.capability(SlotStore.class).map(slots -> slots.recentSlotRuns(job, limit))
                .orElse(List.of());
    }
}
