package io.distlock.torture;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import javax.sql.DataSource;

import io.distlock.core.CrashPolicy;
import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.MissedSlotPolicy;
import io.distlock.core.SlotExecution;
import io.distlock.core.SlotOutcome;
import io.distlock.core.SlotRequest;
import io.distlock.core.SlotSchedule;
import io.distlock.jdbc.dialect.LockDialect;

/**
 * The slots workload of one worker: one thread per job fires on every multiple of the period of the worker's own
 * slot clock, as a scheduler with that clock would, and runs the slot through {@link LockManager#runOncePerSlot}.
 * A run records itself in {@value TortureSchema#SLOT_RUNS} (committed before its work), works for a while — mostly
 * briefly, sometimes past the TTL so that only the watchdog keeps the lease — and records its end. Jobs 2, 5, … run
 * at least once, the others at most once.
 */
final class SlotWork {

    /** How early a run may start before its fire time, as {@code @OncePerSlot} allows for. */
    private static final Duration EARLY = Duration.ofMillis(100);

    private static final Duration MAX_HOLD = Duration.ofMinutes(1);

    private final LockManager locks;

    private final DataSource dataSource;

    private final LockDialect dialect;

    private final Duration ttl;

    private final long periodMillis;

    private final Clock slotClock;

    private final String worker;

    private final long pid;

    private final BooleanSupplier stopping;

    private final SlotSchedule schedule;

    final AtomicLong ran = new AtomicLong();

    final AtomicLong locked = new AtomicLong();

    final AtomicLong alreadyClaimed = new AtomicLong();

    final AtomicLong lost = new AtomicLong();

    final AtomicLong tooEarly = new AtomicLong();

    SlotWork(LockManager locks, DataSource dataSource, LockDialect dialect, Duration ttl, Duration period,
            Clock slotClock, String worker, long pid, BooleanSupplier stopping) {
        this.locks = locks;
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.ttl = ttl;
        this.periodMillis = period.toMillis();
        this.slotClock = slotClock;
        this.worker = worker;
        this.pid = pid;
        this.stopping = stopping;
        this.schedule = after -> Instant.ofEpochMilli((Math.floorDiv(after.toEpochMilli(), periodMillis) + 1)
                * periodMillis);
    }

    /** The crash policy of a job. */
    static CrashPolicy policy(int job) {
        return job % 3 == 2 ? CrashPolicy.AT_LEAST_ONCE : CrashPolicy.AT_MOST_ONCE;
    }

    /**
     * Fires for every slot of a job until told to stop. Throws what the work or the library throws, except
     * {@link InterruptedException}, after which it returns.
     */
    void fire(int job) throws SQLException {
        String name = TortureSchema.jobName(job);
        CrashPolicy policy = policy(job);
        while (!stopping.getAsBoolean()) {
            if (!awaitNextFireTime()) {
                return;
            }
            Instant now = slotClock.instant();
            Instant slot = Instant.ofEpochMilli(Math.floorDiv(now.plus(EARLY).toEpochMilli(), periodMillis)
                    * periodMillis);
            SlotRequest request = new SlotRequest(name, slot, ttl, MAX_HOLD, maxWait(policy, now, slot), policy,
                    MissedSlotPolicy.SKIP, schedule, name);
            SlotOutcome<Void> outcome = locks.runOncePerSlot(request, lease -> work(name, policy, lease));
            switch (outcome.status()) {
                case RAN -> ran.incrementAndGet();
                case LOST -> lost.incrementAndGet();
                case LOCKED -> locked.incrementAndGet();
                case ALREADY_CLAIMED -> alreadyClaimed.incrementAndGet();
                case TOO_EARLY -> tooEarly.incrementAndGet();
            }
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
        }
    }

    /**
     * At least once, a replica waits for the job's lock until shortly before the next slot, so that it can run a
     * slot again whose holder crashed; at most once it tries once.
     */
    private Duration maxWait(CrashPolicy policy, Instant now, Instant slot) {
        if (policy != CrashPolicy.AT_LEAST_ONCE) {
            return Duration.ZERO;
        }
        Duration untilNext = Duration.between(now, slot.plusMillis(periodMillis)).minus(EARLY);
        return untilNext.isNegative() ? Duration.ZERO : untilNext;
    }

    /** Sleeps until the slot clock reaches the next multiple of the period; {@code false} when told to stop. */
    private boolean awaitNextFireTime() {
        long now = slotClock.millis();
        long next = (Math.floorDiv(now, periodMillis) + 1) * periodMillis;
        try {
            for (long left = next - now; left > 0; left = next - slotClock.millis()) {
                if (stopping.getAsBoolean()) {
                    return false;
                }
                Thread.sleep(Math.min(left, 200));
            }
            return !stopping.getAsBoolean();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private Void work(String job, CrashPolicy policy, Lease lease) throws SQLException {
        SlotExecution execution = SlotExecution.current().orElseThrow();
        long slot = execution.slot().toEpochMilli();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement("INSERT INTO " + TortureSchema.SLOT_RUNS
                        + " (job, policy, slot_at, run_no, worker, worker_pid, token, started_at) VALUES "
                        + "(?, ?, ?, ?, ?, ?, ?, " + dialect.currentTimeExpression() + ")")) {
            statement.setString(1, job);
            statement.setString(2, policy.name());
            statement.setLong(3, slot);
            statement.setInt(4, execution.run());
            statement.setString(5, worker);
            statement.setLong(6, pid);
            statement.setLong(7, lease.token());
            statement.executeUpdate();
        }
        try {
            Thread.sleep(workMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return null;
        }
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement("UPDATE " + TortureSchema.SLOT_RUNS
                        + " SET finished_at = " + dialect.currentTimeExpression() + ", lease_lost = ? "
                        + "WHERE job = ? AND slot_at = ? AND token = ?")) {
            statement.setInt(1, lease.isLost() ? 1 : 0);
            statement.setString(2, job);
            statement.setLong(3, slot);
            statement.setLong(4, lease.token());
            statement.executeUpdate();
        }
        return null;
    }

    /** Mostly well under the period; one run in five from 0.6 to 1.3 TTLs, so that renewals carry the lease. */
    private long workMillis() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return random.nextInt(5) == 0 ? random.nextLong(ttl.toMillis() * 3 / 5, ttl.toMillis() * 13 / 10)
                : random.nextLong(20, 500);
    }

    String counts() {
        return "ran=" + ran + " lost=" + lost + " locked=" + locked + " already_claimed=" + alreadyClaimed
                + " too_early=" + tooEarly;
    }
}
