package io.distlock.jdbc;

/**
 * What a {@link FencingGuard} decided about one write.
 */
public enum FencingResult {

    /**
     * The token is at least as high as every token accepted before: the fence now holds it, and the write may go
     * ahead in the same transaction.
     */
    ACCEPTED,

    /**
     * A higher token was accepted before: the writer's lease is stale, and its write must not happen. Nothing was
     * changed.
     */
    REFUSED;

    /**
     * Whether the write may go ahead.
     *
     * @return {@code true} for {@link #ACCEPTED}
     */
    public boolean accepted() {
        return this == ACCEPTED;
    }
}
