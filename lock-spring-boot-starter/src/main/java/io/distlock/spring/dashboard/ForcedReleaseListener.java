package io.distlock.spring.dashboard;

/**
 * Told of every lock force-released through the dashboard, after the release applied: how the releases are counted
 * in Micrometer, and a hook for an audit trail of one's own.
 */
@FunctionalInterface
public interface ForcedReleaseListener {

    /**
     * A lock was force-released.
     *
     * @param resource the resource
     * @param token the fencing token of the acquisition that was ended
     * @param who who asked, as logged
     */
    void released(String resource, long token, String who);
}
