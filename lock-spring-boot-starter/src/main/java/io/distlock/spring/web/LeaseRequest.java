package io.distlock.spring.web;

import org.jspecify.annotations.Nullable;

/**
 * The body of an acquire or renew call.
 *
 * @param owner the caller's owner token; only this token can renew or release the lock later, so it should be
 *     unguessable
 * @param ttl the lease length as an ISO-8601 duration, such as {@code PT30S}
 */
public record LeaseRequest(@Nullable String owner, @Nullable String ttl) {
}
