package io.distlock.spring.dashboard;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

import io.distlock.spring.slot.SlotJobs.SlotJob;
import org.jspecify.annotations.Nullable;

/**
 * What one refresh of the page shows: the store's locks and slot jobs as last read (with how old and, when the store
 * did not answer, why they are stale), this instance's events, and who this instance is.
 */
final class DashboardStates {

    private final LockSnapshots snapshots;

    private final LockRows lockRows;

    private final SlotStrips strips;

    private final Supplier<List<SlotJob>> declaredJobs;

    private final LeaseRenewals renewals;

    private final DashboardEvents events;

    private final ForcedReleases releases;

    private final String instance;

    private final DashboardSettings settings;

    private final Clock clock;

    DashboardStates(LockSnapshots snapshots, LockRows lockRows, SlotStrips strips, Supplier<List<SlotJob>> declaredJobs,
            LeaseRenewals renewals, DashboardEvents events, ForcedReleases releases, String instance,
            DashboardSettings settings, Clock clock) {
        this.snapshots = snapshots;
        this.lockRows = lockRows;
        this.strips = strips;
        this.declaredJobs = declaredJobs;
        this.renewals = renewals;
        this.events = events;
        this.releases = releases;
        this.instance = instance;
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * The state a page shows.
     *
     * @param query which locks
     * @param mode what the dashboard allows
     * @param admin whether this viewer may release locks and see full owners
     * @return the state
     */
    State state(LockQuery query, DashboardAccess.Mode mode, boolean admin) {
        LockSnapshots.Reading reading = snapshots.read();
        LockSnapshot snapshot = reading.snapshot();
        Instant now = clock.instant();
        Instant readAt = reading.readAt();
        Store store = new Store(reading.problem() == null, reading.problem(),
                readAt != null ? readAt.toString() : null,
                readAt != null ? Math.max(0, Duration.between(readAt, now).toMillis()) : null);
        LockRows.Page locks = snapshot != null
                ? lockRows.page(snapshot.locks(), query, now, renewals.counts(), admin) : null;
        List<SlotStrips.JobRow> jobs = snapshot != null ? strips.rows(declaredJobs.get(), snapshot, now, admin)
                : null;
        return new State(instance, mode.label(), admin, now.toString(), settings.refreshInterval().toMillis(), store,
                locks, jobs, events.view(), releases.count());
    }

    /**
     * What one refresh shows.
     *
     * @param instance this instance's name: the readable prefix of its owner tokens
     * @param mode {@code read-only}, {@code admin} or {@code admin, unprotected}
     * @param admin whether this viewer may release locks (and sees full owner tokens)
     * @param now this application's clock
     * @param refreshMillis time between two refreshes
     * @param store whether the store answered
     * @param locks the locks page, or {@code null} when the store never answered
     * @param jobs the slot jobs, or {@code null} when the store never answered
     * @param events this instance's events
     * @param forcedReleases locks force-released through this instance's dashboard since it started
     */
    record State(String instance, String mode, boolean admin, String now, long refreshMillis, Store store,
            LockRows.@Nullable Page locks, @Nullable List<SlotStrips.JobRow> jobs, DashboardEvents.View events,
            long forcedReleases) {
    }

    /**
     * The store's answer.
     *
     * @param reachable whether the data is fresh
     * @param problem why it is stale, or {@code null}
     * @param readAt when the data shown was read, or {@code null} when the store never answered
     * @param ageMillis how old the data shown is
     */
    record Store(boolean reachable, @Nullable String problem, @Nullable String readAt, @Nullable Long ageMillis) {
    }
}
