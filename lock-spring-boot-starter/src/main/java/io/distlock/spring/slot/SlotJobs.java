package io.distlock.spring.slot;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

import io.distlock.core.CrashPolicy;
import io.distlock.core.MissedSlotPolicy;
import io.distlock.core.SlotSchedule;

/**
 * The application's {@link io.distlock.spring.OncePerSlot} jobs as declared, for what reports on them, such as the
 * lock dashboard: each job's name, schedule and policies; a job whose cron is disabled ({@code "-"}) has no slots and
 * is not listed. Complete once the context has started, when every
 * declaration has been checked.
 */
public final class SlotJobs {

    private final SlotMethods slotMethods;

    SlotJobs(SlotMethods slotMethods) {
        this.slotMethods = slotMethods;
    }

    /**
     * The declared jobs, ordered by name.
     *
     * @return one entry per job
     */
    public List<SlotJob> declared() {
        return slotMethods.declared().stream()
                .filter(method -> method.trigger() != null)
                .map(method -> new SlotJob(method.job(), method.description(), method.trigger().description(),
                        method.trigger(), method.onCrash(), method.onMissed()))
                .sorted(Comparator.comparing(SlotJob::job))
                .toList();
    }

    /**
     * One declared job.
     *
     * @param job the job's name
     * @param method the scheduled method, named for people
     * @param schedule the trigger in words, such as {@code cron "0 0 * * * *" in UTC} or a fixed rate
     * @param slots the trigger's fire times, as the job's slots are computed
     * @param onCrash what happens to a slot whose run crashed
     * @param onMissed what happens to missed slots
     */
    public record SlotJob(String job, String method, String schedule, SlotSchedule slots, CrashPolicy onCrash,
            MissedSlotPolicy onMissed) {

        public SlotJob {
            Objects.requireNonNull(job, "job");
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(schedule, "schedule");
            Objects.requireNonNull(slots, "slots");
            Objects.requireNonNull(onCrash, "onCrash");
            Objects.requireNonNull(onMissed, "onMissed");
        }
    }
}
