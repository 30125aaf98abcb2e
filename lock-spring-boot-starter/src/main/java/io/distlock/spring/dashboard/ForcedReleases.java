package io.distlock.spring.dashboard;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.distlock.core.ForcedRelease;
import io.distlock.core.LockArguments;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.LockResult;
import io.distlock.core.OwnerFingerprint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpStatus;

/**
 * The admin mode's forced release: ends the lock of the fencing token the operator saw, whoever holds it, in one
 * decision of the store ({@link io.distlock.core.ForcedRelease}). The next holder gets a larger token, and the old
 * holder's watchdog finds the lease gone at its next renewal and tells it lost. Each release is logged at WARN with who
 * asked, counted, and recorded among the dashboard's events.
 */
final class ForcedReleases {

    private static final Logger logger = LoggerFactory.getLogger(ForcedReleases.class);

    private final LockRepository repository;

    private final DashboardEvents events;

    private final List<ForcedReleaseListener> listeners;

    private final AtomicLong count = new AtomicLong();

    ForcedReleases(LockRepository repository, DashboardEvents events, List<ForcedReleaseListener> listeners) {
        this.repository = repository;
        this.events = events;
        this.listeners = List.copyOf(listeners);
    }

    /**
     * Releases a lock if it is still held under the token the operator saw.
     *
     * @param resource the resource
     * @param token the fencing token
     * @param who who asked, for the log
     * @return what was released
     * @throws IllegalArgumentException for a bad resource or token
     * @throws DashboardRefusal when no live lock has that token
     */
    Released release(String resource, long token, String who) {
        LockArguments.requireResource(resource);
        if (token < 0) {
            throw new IllegalArgumentException("token must not be negative, got " + token);
        }
        String owner = repository.find(resource).filter(record -> record.token() == token).map(LockRecord::owner)
                .map(OwnerFingerprint::of).orElse("unknown");
        LockResult result = ForcedRelease.of(repository).forceRelease(resource, token);
        switch (result) {
            case NOT_FOUND -> throw new DashboardRefusal(HttpStatus.NOT_FOUND, "Lock not found", "No live lock on '"
                    + resource + "': it was released or expired meanwhile; nothing was released");
            case FORBIDDEN -> throw new DashboardRefusal(HttpStatus.CONFLICT, "Lock changed hands", "The lock on '"
                    + resource + "' is no longer held under token " + token + ": another acquisition took it since "
                    + "the page showed it; nothing was released");
            case APPLIED -> {
            }
        }
        logger.warn("Force-released the lock on '{}' (token {}, owner {}) through the lock dashboard, asked by {}; "
                + "its holder learns at its next renewal", resource, token, owner, who);
        count.incrementAndGet();
        for (ForcedReleaseListener listener : listeners) {
            try {
                listener.released(resource, token, who);
            }
            catch (RuntimeException ex) {
                logger.warn("Forced release listener {} failed", listener, ex);
            }
        }
        events.add(DashboardEvents.Kind.FORCED_RELEASE, resource, "Force-released the lock on '" + resource
                + "' (token " + token + ", owner " + owner + "), asked by " + who);
        return new Released(resource, token, owner);
    }

    /**
     * How many locks were force-released through this instance's dashboard since it started.
     *
     * @return the count
     */
    long count() {
        return count.get();
    }

    /**
     * A forced release that applied.
     *
     * @param resource the resource
     * @param token the ended acquisition's token
     * @param owner its owner's fingerprint
     */
    record Released(String resource, long token, String owner) {
    }
}
