package io.distlock.spring.jdbc;

import org.jspecify.annotations.Nullable;

/**
 * The database behind the lock table could not be reached at start-up: what start-up needed it for, its JDBC URL
 * when the data source tells it, the driver's answer, and what the user can do.
 */
final class LockDatabaseUnreachableException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String description;

    private final @Nullable String url;

    private final String action;

    LockDatabaseUnreachableException(String description, @Nullable String url, String action, Throwable cause) {
        super(description + " " + action, cause);
        this.description = description;
        this.url = url;
        this.action = action;
    }

    /**
     * What failed, without the advice.
     *
     * @return for example {@code Distributed locks could not set up the lock repository at start-up: the database at
     *     jdbc:postgresql://db:5432/app could not be reached (Connection refused).}
     */
    String description() {
        return description;
    }

    /**
     * The data source's JDBC URL.
     *
     * @return the URL, or {@code null} when the data source does not tell it
     */
    @Nullable String url() {
        return url;
    }

    /**
     * What the user can do about it.
     *
     * @return the advice, as a sentence without its final full stop
     */
    String action() {
        return action;
    }
}
