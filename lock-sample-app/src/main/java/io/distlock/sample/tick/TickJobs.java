package io.distlock.sample.tick;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import io.distlock.core.CurrentLease;
import io.distlock.core.SlotExecution;
import io.distlock.sample.DemoProperties;
import io.distlock.sample.JobConsole;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.OncePerSlot;

import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The same short job twice, every four seconds of each replica's scheduler clock, side by side: once guarded by the
 * lock alone, once claimed per slot. Both run for less time than the replicas' clocks disagree by. The lock-only job
 * keeps two replicas from running at the same instant, but a replica whose clock is behind fires the same slot again
 * after another replica has finished it, and runs it a second time; the per-slot job finds that slot claimed and
 * skips it.
 */
@Component
public class TickJobs {

    private static final Duration PERIOD = Duration.ofSeconds(4);

    private final JobConsole console;

    private final DemoProperties properties;

    private final Clock schedulerClock;

    public TickJobs(JobConsole console, DemoProperties properties, TaskScheduler scheduler) {
        this.console = console;
        this.properties = properties;
        this.schedulerClock = scheduler.getClock();
    }

    /** Guarded by the lock alone, without a minimum hold: no two replicas at once, but a slot may run twice. */
    @Scheduled(cron = "*/4 * * * * *", zone = "UTC")
    @DistributedLock(resource = "lock-only", ttl = "PT2S")
    public void lockOnly() throws InterruptedException {
        Instant slot = JobConsole.slot(schedulerClock, PERIOD);
        console.executed("lock-only", slot, CurrentLease.require().token());
        Thread.sleep(properties.tickWork().toMillis());
    }

    /** Claimed per slot: each slot runs once across the replicas. */
    @Scheduled(cron = "*/4 * * * * *", zone = "UTC")
    @OncePerSlot(job = "per-slot", ttl = "PT2S")
    public void perSlot() throws InterruptedException {
        SlotExecution execution = SlotExecution.current().orElseThrow();
        console.executed("per-slot", execution.slot(), execution.lease().token());
        Thread.sleep(properties.tickWork().toMillis());
    }
}
