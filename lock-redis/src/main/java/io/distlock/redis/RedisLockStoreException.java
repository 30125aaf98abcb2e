package io.distlock.redis;

/**
 * Redis cannot serve as the lock store: it does not answer, refuses the credentials, does not let this client run
 * scripts, is older than 7.0, or holds a key of the lock layout with another type. Thrown by
 * {@link RedisLockRepository#verifySchema()} at start-up, before any lock is taken, saying what to do.
 */
public class RedisLockStoreException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong and how to fix it
     * @param cause the client's or the server's answer
     */
    public RedisLockStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
