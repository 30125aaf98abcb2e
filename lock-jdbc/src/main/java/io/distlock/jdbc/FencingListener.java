package io.distlock.jdbc;

/**
 * Told of every write a {@link FencingGuard} refused, so that what reports on locks (a dashboard, an audit log) can
 * show that a holder with a stale lease tried to write. Listeners run on the writer's thread, inside its transaction,
 * and must be quick; an exception they throw is ignored.
 */
@FunctionalInterface
public interface FencingListener {

    /**
     * A write was refused: a higher token was accepted before.
     *
     * @param name the protected resource
     * @param token the stale token the write carried
     */
    void refused(String name, long token);
}
