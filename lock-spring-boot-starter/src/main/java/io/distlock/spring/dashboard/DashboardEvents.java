package io.distlock.spring.dashboard;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import io.distlock.core.Lease;
import io.distlock.core.LockObserver;
import io.distlock.core.MissedSlots;
import io.distlock.core.OwnerFingerprint;
import io.distlock.jdbc.FencingListener;
import io.distlock.spring.support.LockDeclarationListener;

/**
 * The latest lock events this instance saw, for the dashboard: lost leases, refused fenced writes, crashed and missed
 * slots, slots refused because this instance's clock runs ahead, store errors, forced releases and start-up warnings.
 * A ring in memory: it keeps the latest {@code capacity} events and counts those it dropped; it starts empty with
 * every start of the application. The same event about the same subject again within a minute is counted on the
 * event already kept instead of pushing others out.
 */
final class DashboardEvents implements LockObserver, LockDeclarationListener, FencingListener {

    private static final Duration COALESCE = Duration.ofMinutes(1);

    private static final int MAX_MESSAGE = 600;

    private final int capacity;

    private final Clock clock;

    private final Deque<Event> events = new ArrayDeque<>();

    private long sequence;

    private long dropped;

    DashboardEvents(int capacity, Clock clock) {
        this.capacity = capacity;
        this.clock = clock;
    }

    @Override
    public void lost(Lease lease, String reason) {
        add(Kind.LEASE_LOST, lease.resource(), "Lost the lock on '" + lease.resource() + "' (owner "
                + OwnerFingerprint.of(lease.owner()) + ", token " + lease.token() + "): " + reason);
    }

    @Override
    public void refused(String name, long token) {
        add(Kind.FENCED_WRITE_REFUSED, name, "Refused a write to '" + name + "' with token " + token
                + ": a higher token was accepted before, so its writer's lease was stale");
    }

    @Override
    public void declarationWarning(String warning) {
        add(Kind.STARTUP_WARNING, "", warning);
    }

    @Override
    public void slotCrashed(String name, Instant slot) {
        add(Kind.SLOT_CRASHED, name, "Slot " + slot + " of job '" + name + "' never finished: its holder stopped "
                + "mid-run");
    }

    @Override
    public void slotsMissed(String name, MissedSlots missed) {
        add(Kind.SLOTS_MISSED, name, "Job '" + name + "' missed " + missed + ": no replica ran "
                + (missed.count() == 1 ? "it" : "them"));
    }

    @Override
    public void slotTooEarly(String name, Instant slot, Duration ahead) {
        add(Kind.SLOT_TOO_EARLY, name, "Refused slot " + slot + " of job '" + name + "' here: it is " + ahead
                + " ahead of the store's clock, so this instance's clock runs ahead");
    }

    @Override
    public void acquireFailed(String name, String resource, Duration elapsed, RuntimeException error) {
        add(Kind.STORE_ERROR, resource, "Could not acquire the lock on '" + resource + "': " + error.getMessage());
    }

    @Override
    public void renewalFailed(Lease lease, RuntimeException error) {
        add(Kind.STORE_ERROR, lease.resource(), "Could not renew the lock on '" + lease.resource() + "': "
                + error.getMessage());
    }

    /**
     * Records an event of the dashboard's own, such as a forced release or an unprotected admin mode.
     *
     * @param kind what happened
     * @param subject the resource or job it concerns, or empty
     * @param message what to show
     */
    synchronized void add(Kind kind, String subject, String message) {
        message = message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE - 1) + "…";
        Instant now = clock.instant();
        Event newest = events.peekLast();
        if (newest != null && newest.kind() == kind && newest.subject().equals(subject)
                && Duration.between(newest.at(), now).compareTo(COALESCE) < 0) {
            events.pollLast();
            events.addLast(new Event(newest.sequence(), now, kind, subject, message, newest.count() + 1));
            return;
        }
        if (events.size() == capacity) {
            events.pollFirst();
            dropped++;
        }
        events.addLast(new Event(++sequence, now, kind, subject, message, 1));
    }

    /**
     * The events kept, newest first.
     *
     * @return a snapshot
     */
    synchronized View view() {
        List<Event> newestFirst = new ArrayList<>(events);
        java.util.Collections.reverse(newestFirst);
        return new View(capacity, dropped, newestFirst.stream().map(Event::shown).toList());
    }

    /** What an event tells. */
    enum Kind {

        LEASE_LOST, FENCED_WRITE_REFUSED, STARTUP_WARNING, SLOT_CRASHED, SLOTS_MISSED, SLOT_TOO_EARLY, STORE_ERROR,
        FORCED_RELEASE;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    private record Event(long sequence, Instant at, Kind kind, String subject, String message, int count) {

        Shown shown() {
            return new Shown(sequence, at.toString(), kind.label(), subject, message, count);
        }
    }

    /**
     * The events as the page shows them.
     *
     * @param capacity how many events are kept at most
     * @param dropped how many older events were dropped to keep within it
     * @param items the events, newest first
     */
    record View(int capacity, long dropped, List<Shown> items) {
    }

    /**
     * One event.
     *
     * @param sequence its number, increasing
     * @param at when it happened (the last time, for a repeated one)
     * @param kind what happened, such as {@code lease-lost}
     * @param subject the resource or job, or empty
     * @param message what to show
     * @param count how often it happened within a minute of the previous time
     */
    record Shown(long sequence, String at, String kind, String subject, String message, int count) {
    }
}
