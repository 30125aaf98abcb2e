package io.distlock.spring.store;

/**
 * The store {@code distributed-lock.store} chose could not be set up: the start fails rather than leave guarded
 * methods unguarded.
 */
final class LockStoreMissingException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String action;

    LockStoreMissingException(String description, String action) {
        super(description);
        this.action = action;
    }

    /**
     * What to do about it.
     *
     * @return the action, for the failure analysis
     */
    String action() {
        return action;
    }
}
