package io.distlock.spring.dashboard;

import io.distlock.core.OwnerFingerprint;

/**
 * How the dashboard names owners. Whoever knows an owner token may release or renew its lock, so a page shows its
 * fingerprint ({@link OwnerFingerprint}) unless the viewer may force-release locks anyway.
 */
final class Owners {

    private Owners() {
    }

    /**
     * The owner as a viewer may see it.
     *
     * @param owner the full owner token
     * @param full whether the viewer may see full tokens
     * @return the token or its fingerprint
     */
    static String shown(String owner, boolean full) {
        return full ? owner : OwnerFingerprint.of(owner);
    }

    /**
     * The instance that holds a lock: the readable prefix of its owner token, up to the last {@code :}, which names the
     * host and process or the configured {@code distributed-lock.owner-prefix}.
     *
     * @param owner the owner token
     * @return the prefix, or empty for a token without one (such as a client of the HTTP API)
     */
    static String instance(String owner) {
        int end = owner.lastIndexOf(':');
        return end > 0 ? owner.substring(0, end) : "";
    }
}
