package io.distlock.redis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.distlock.core.LockArguments;
import io.distlock.core.SlotClaim;
import io.distlock.core.SlotRequest;
import io.distlock.core.SlotRun;
import io.distlock.core.SlotRunOutcome;
import io.distlock.core.SlotStore;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;

import static io.distlock.redis.RedisReplies.expectSize;
import static io.distlock.redis.RedisReplies.number;

/**
 * The scheduled slots of jobs on Redis: per job, beside its lock, a hash of its last claimed slot that never expires
 * and a list of its last {@value SlotRun#KEPT_PER_JOB} runs, under the job's hash tag, so that one script on one
 * cluster slot decides each claim against the caller's live lock and the server's clock ({@code TIME}).
 */
final class RedisSlotStore implements SlotStore {

    private final RedisCalls calls;

    private final RedisLockKeys keys;

    RedisSlotStore(RedisCalls calls, RedisLockKeys keys) {
        this.calls = calls;
        this.keys = keys;
    }

    @Override
    public SlotClaim claimSlot(String job, String owner, Instant slot, boolean rerunUnfinished) {
        LockArguments.slotClaim(job, owner, slot);
        List<Object> reply = calls.run(LockScripts.CLAIM_SLOT, List.of(keys.lockKey(job), keys.slotKey(job),
                keys.runsKey(job)), owner, Long.toString(slot.toEpochMilli()), rerunUnfinished ? "1" : "0",
                Integer.toString(SlotRun.KEPT_PER_JOB), Long.toString(SlotRequest.EARLY_TOLERANCE.toMillis()));
        long status = number(reply, 0);
        if (status == 0) {
            return SlotClaim.refused(SlotClaim.Status.NOT_HELD, null);
        }
        if (status < 0) {
            expectSize(reply, 2);
            return SlotClaim.refused(status == -2 ? SlotClaim.Status.TOO_EARLY : SlotClaim.Status.NOT_LATER,
                    Instant.ofEpochMilli(number(reply, 1)));
        }
        expectSize(reply, 6);
        long previous = number(reply, 2);
        return new SlotClaim(SlotClaim.Status.CLAIMED, (int) number(reply, 1),
                previous < 0 ? null : Instant.ofEpochMilli(previous), number(reply, 3) == 1, number(reply, 4),
                Instant.ofEpochMilli(number(reply, 5)));
    }

    @Override
    public void finishSlot(String job, Instant slot, long token, SlotRunOutcome outcome) {
        LockArguments.slotFinish(job, slot, outcome);
        calls.run(LockScripts.FINISH_SLOT, List.of(keys.slotKey(job), keys.runsKey(job)),
                Long.toString(slot.toEpochMilli()), Long.toString(token), outcome.name());
    }

    /** Slots are kept: nothing to check beyond the store's schema check. */
    @Override
    public void verifySlots() {
    }

    /**
     * The latest slot runs; for every job, one {@code SCAN} over the runs lists of the prefix (as the locks are listed)
     * and one {@code LRANGE} per job.
     */
    @Override
    public List<SlotRun> recentSlotRuns(@Nullable String job, int limit) {
        LockArguments.slotRuns(job, limit);
        List<String> jobs = new ArrayList<>();
        if (job != null) {
            jobs.add(job);
        }
        else {
            for (String key : calls.scan(keys.runsPattern())) {
                String found = keys.jobOfRunsKey(key);
                if (found != null) {
                    jobs.add(found);
                }
            }
            jobs.sort(Comparator.naturalOrder());
        }
        List<SlotRun> runs = new ArrayList<>();
        for (String each : jobs) {
            List<String> entries;
            try {
                entries = calls.template().opsForList().range(keys.runsKey(each), 0, limit - 1L);
            }
            catch (DataAccessException ex) {
                throw RedisFailures.ofScript(ex, keys);
            }
            for (String entry : entries == null ? List.<String>of() : entries) {
                runs.add(RedisReplies.slotRun(each, entry));
            }
        }
        return runs;
    }
}
