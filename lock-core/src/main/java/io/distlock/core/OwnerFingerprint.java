package io.distlock.core;

/**
 * A short, recognisable form of an owner token for logs and messages. Whoever knows an owner token may release or
 * renew its lock, so the full token is shown only where an operator asked for it (the Actuator endpoint, the HTTP
 * API's read); everywhere else the readable prefix and the first characters of the random part stand for it.
 */
public final class OwnerFingerprint {

    private static final int SHOWN = 4;

    private OwnerFingerprint() {
    }

    /**
     * Shortens an owner token: {@code replica-2:ZqHF58Ob08DCk0VrCNG9wA} becomes {@code replica-2:ZqHF…}.
     *
     * @param owner the owner token
     * @return the prefix up to the last {@code :} and the first four characters after it, or the whole token when
     *     it is too short to shorten
     */
    public static String of(String owner) {
        int secret = owner.lastIndexOf(':') + 1;
        if (owner.length() - secret <= SHOWN * 2) {
            return owner.length() <= SHOWN * 2 ? owner : owner.substring(0, SHOWN) + "…";
        }
        return owner.substring(0, secret + SHOWN) + "…";
    }
}
