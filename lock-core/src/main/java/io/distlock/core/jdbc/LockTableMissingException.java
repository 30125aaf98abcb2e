package io.distlock.core.jdbc;

/**
 * The lock table or its token sequence does not exist, or lacks a column: thrown at start-up, before any lock is
 * taken, with the script that creates them.
 */
public class LockTableMissingException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is missing and how to create it
     * @param cause the database's answer
     */
    public LockTableMissingException(String message, Throwable cause) {
        super(message, cause);
    }
}
