package io.distlock.jdbc;

import org.jspecify.annotations.Nullable;

/**
 * The lock table or its token sequence does not exist, lacks a column, or has a column whose type breaks the lock's
 * guarantees: thrown at start-up, before any lock is taken, with the script that creates them.
 */
public class LockTableMissingException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is missing and how to create it
     * @param cause the database's answer, if any
     */
    public LockTableMissingException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
