package io.distlock.spring.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.LockObserver;
import io.distlock.core.MissedSlots;
import io.distlock.core.SlotOutcome;
import io.distlock.core.SlotRunOutcome;
import io.distlock.spring.autoconfigure.LockCleanupListener;
import io.distlock.spring.support.LockDeclarationListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Records a {@link LockManager}'s events as Micrometer meters. Locks are tagged with their name — an annotation's
 * resource template such as {@code report:#{#month}}, never the evaluated resource — so that the number of time
 * series stays small.
 * <ul>
 * <li>{@code distributed.lock.acquire} timer, tags {@code lock} and {@code outcome} ({@code acquired}, {@code held},
 * {@code error})</li>
 * <li>{@code distributed.lock.held} timer, tag {@code lock}: how long leases were held</li>
 * <li>{@code distributed.lock.active} gauge: leases this process holds now</li>
 * <li>{@code distributed.lock.renewals} counter, tags {@code lock} and {@code outcome} ({@code renewed},
 * {@code lost}, {@code error})</li>
 * <li>{@code distributed.lock.lost} counter, tag {@code lock}</li>
 * <li>{@code distributed.lock.slots} counter, tags {@code lock} (the {@code @OncePerSlot} job) and {@code outcome}
 * ({@code executed}, {@code failed}, {@code lost}, {@code skipped}, {@code missed}, {@code crashed}, {@code early}:
 * refused because this replica's clock runs ahead of the store's): scheduled slots
 * by what became of them here</li>
 * <li>{@code distributed.lock.cleanup.deleted} counter: rows of expired locks the scheduled clean-up deleted on this
 * replica</li>
 * </ul>
 * Every meter of a lock or job the application declares ({@link LockDeclarationListener}) exists from start-up, at
 * zero, so that an alert rule never finds its series missing; others appear with their first event.
 */
public final class LockMetrics implements LockObserver, LockDeclarationListener {

    static final String ACQUIRE = "distributed.lock.acquire";

    static final String HELD = "distributed.lock.held";

    static final String ACTIVE = "distributed.lock.active";

    static final String RENEWALS = "distributed.lock.renewals";

    static final String LOST = "distributed.lock.lost";

    static final String SLOTS = "distributed.lock.slots";
    static final String CLEANUP_DELETED = "distributed.lock.cleanup.deleted";

    private final MeterRegistry registry;

    /**
     * Creates the observer.
     *
     * @param registry where meters are registered
     */
    public LockMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * A binder for the gauge of leases a manager holds now.
     *
     * @param manager the manager whose active leases are counted
     * @return the binder
     */
    public static MeterBinder activeLeases(LockManager manager) {
        return registry -> Gauge.builder(ACTIVE, manager, m -> m.activeLeases().size())
                .description("Leases this process holds now")
                .register(registry);
    }

    /**
     * A clean-up listener counting deleted rows; the counter is registered at once, at zero.
     *
     * @param registry where the counter is registered
     * @return the listener
     */
    public static LockCleanupListener cleanupCounter(MeterRegistry registry) {
        Counter deleted = Counter.builder(CLEANUP_DELETED)
                .description("Rows of expired locks the scheduled clean-up deleted")
                .register(registry);
        return rows -> deleted.increment(rows);
    }

    @Override
    public void lockDeclared(String name) {
        for (String outcome : List.of("acquired", "held", "error")) {
            acquireTimer(name, outcome);
        }
        for (String outcome : List.of("renewed", "lost", "error")) {
            renewals(name, outcome);
        }
        lostCounter(name);
        heldTimer(name);
    }

    @Override
    public void slotJobDeclared(String job) {
        lockDeclared(job);
        for (String outcome : List.of("executed", "failed", "lost", "skipped", "missed", "crashed", "early")) {
            slots(job, outcome);
        }
    }

    @Override
    public void acquired(String name, Lease lease, Duration elapsed) {
        acquireTimer(name, "acquired").record(elapsed);
    }

    @Override
    public void held(String name, String resource, Duration elapsed) {
        acquireTimer(name, "held").record(elapsed);
    }

    @Override
    public void acquireFailed(String name, String resource, Duration elapsed, RuntimeException error) {
        acquireTimer(name, "error").record(elapsed);
    }

    @Override
    public void renewed(Lease lease) {
        renewals(lease.metricsLabel(), "renewed").increment();
    }

    @Override
    public void renewalFailed(Lease lease, RuntimeException error) {
        renewals(lease.metricsLabel(), "error").increment();
    }

    @Override
    public void lost(Lease lease, String reason) {
        renewals(lease.metricsLabel(), "lost").increment();
        lostCounter(lease.metricsLabel()).increment();
    }

    @Override
    public void released(Lease lease, Duration held) {
        heldTimer(lease.metricsLabel()).record(held);
    }

    @Override
    public void slotRan(String name, Instant slot, SlotRunOutcome outcome) {
        slots(name, switch (outcome) {
            case SUCCEEDED, RUNNING -> "executed";
            case FAILED -> "failed";
            case LOST -> "lost";
            case CRASHED -> "crashed";
        }).increment();
    }

    @Override
    public void slotSkipped(String name, Instant slot, SlotOutcome.Status why) {
        slots(name, "skipped").increment();
    }

    @Override
    public void slotsMissed(String name, MissedSlots missed) {
        slots(name, "missed").increment(missed.count());
    }

    @Override
    public void slotTooEarly(String name, Instant slot, Duration ahead) {
        slots(name, "early").increment();
    }

    @Override
    public void slotCrashed(String name, Instant slot) {
        slots(name, "crashed").increment();
    }

    private Counter slots(String job, String outcome) {
        return Counter.builder(SLOTS).description("Scheduled slots by what became of them on this replica")
                .tag("lock", job).tag("outcome", outcome).register(registry);
    }

    private Timer acquireTimer(String name, String outcome) {
        return Timer.builder(ACQUIRE).description("Lock acquire attempts, waiting included")
                .tag("lock", name).tag("outcome", outcome).register(registry);
    }

    private Counter renewals(String name, String outcome) {
        return Counter.builder(RENEWALS).description("Lease renewals by outcome")
                .tag("lock", name).tag("outcome", outcome).register(registry);
    }

    private Counter lostCounter(String name) {
        return Counter.builder(LOST).description("Leases found lost while their holder still ran")
                .tag("lock", name).register(registry);
    }

    private Timer heldTimer(String name) {
        return Timer.builder(HELD).description("How long leases were held, from acquisition to release")
                .tag("lock", name).register(registry);
    }
}
