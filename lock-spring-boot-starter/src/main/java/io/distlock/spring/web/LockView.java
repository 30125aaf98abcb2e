package io.distlock.spring.web;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.distlock.core.LockRecord;
import org.jspecify.annotations.Nullable;

/**
 * A lock as the HTTP API shows it. {@code acquired} appears only in answers to an acquire call; an acquire that
 * found the lock held answers with {@code acquired: false} and the resource alone.
 *
 * @param acquired whether the acquire call took the lock, or {@code null} outside acquire answers
 * @param resource the locked resource
 * @param owner the owner token of the holder
 * @param token the fencing token
 * @param acquiredAt when the holder took the lock (UTC)
 * @param expiresAt when the lease runs out unless renewed (UTC)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LockView(@Nullable Boolean acquired, String resource, @Nullable String owner, @Nullable Long token,
        @Nullable Instant acquiredAt, @Nullable Instant expiresAt) {

    static LockView of(LockRecord record) {
        return new LockView(null, record.resource(), record.owner(), record.token(), record.acquiredAt(),
                record.expiresAt());
    }

    static LockView acquired(LockRecord record) {
        return new LockView(true, record.resource(), record.owner(), record.token(), record.acquiredAt(),
                record.expiresAt());
    }

    static LockView notAcquired(String resource) {
        return new LockView(false, resource, null, null, null, null);
    }
}
