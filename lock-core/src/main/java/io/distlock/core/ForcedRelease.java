package io.distlock.core;

import java.util.Optional;

/**
 * An operator's release of a live lock, whoever holds it: only while its fencing token is still the one the
 * operator saw, so that a lock that changed hands since is left alone. The lock is free at once, whatever minimum
 * hold it was taken with; the next holder draws a larger token, the old owner too should it acquire again, and the
 * old holder finds its lease gone at its next renewal or release (its watchdog tells it lost).
 */
@FunctionalInterface
public interface ForcedRelease {

    /**
     * Ends the live lock on a resource while its token is {@code token}.
     *
     * @param resource the locked resource
     * @param token the fencing token of the acquisition to end
     * @return {@link LockResult#APPLIED}; {@link LockResult#NOT_FOUND} when no live lock exists;
     *     {@link LockResult#FORBIDDEN} when the live lock has another token
     * @since 0.1.0
     */
    LockResult forceRelease(String resource, long token);

    /**
     * The forced release of a store: its own, decided in one statement or script (the built-in stores draw a new
     * token for every next holder), or else one that reads the lock and releases it with its owner — two operations,
     * each decided on its own, so that a lock that changed hands between them is refused, never released; an owner
     * that acquires again may then keep its token.
     *
     * @param repository the store
     * @return its forced release
     */
    static ForcedRelease of(LockRepository repository) {
        return repository.capability(ForcedRelease.class).orElse((resource, token) -> {
            Optional<LockRecord> live = repository.find(LockArguments.requireResource(resource));
            if (live.isEmpty()) {
                return LockResult.NOT_FOUND;
            }
            if (live.get().token() != token) {
                return LockResult.FORBIDDEN;
            }
            return repository.release(resource, live.get().owner());
        });
    }
}
