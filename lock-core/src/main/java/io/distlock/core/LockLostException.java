package io.distlock.core;

/**
 * The lease is gone: it expired or another owner took the lock while this holder still believed it held it. Work
 * that depends on exclusivity must stop, and writes must carry the fencing token so that the protected resource can
 * refuse them.
 */
public class LockLostException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String resource;

    private final String owner;

    /**
     * Creates the exception.
     *
     * @param resource the resource whose lease was lost
     * @param owner the owner token that held it
     * @param detail why the lease is known to be lost
     */
    public LockLostException(String resource, String owner, String detail) {
        super("Lost the lock on '" + resource + "' (owner " + OwnerFingerprint.of(owner) + "): " + detail);
        this.resource = resource;
        this.owner = owner;
    }

    /**
     * The resource whose lease was lost.
     *
     * @return the resource name
     */
    public String resource() {
        return resource;
    }

    /**
     * The owner token that held it, in full (the message shows only its {@link OwnerFingerprint}).
     *
     * @return the owner
     */
    public String owner() {
        return owner;
    }
}
