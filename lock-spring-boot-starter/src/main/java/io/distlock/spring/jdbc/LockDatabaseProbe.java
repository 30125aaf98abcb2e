package io.distlock.spring.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import javax.sql.DataSource;

import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.jdbc.dialect.LockDialects;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanWrapper;
import org.springframework.beans.PropertyAccessorFactory;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * What start-up learns about the database behind the lock table without depending on it: its JDBC URL when the
 * data source tells it, the dialect that URL implies, and whether a connection can be had, with a message that
 * names the real cause when it cannot.
 */
final class LockDatabaseProbe {

    private static final List<String> URL_PROPERTIES = List.of("jdbcUrl", "url", "URL");

    private final DataSource dataSource;

    private final @Nullable String url;

    LockDatabaseProbe(DataSource dataSource) {
        this.dataSource = dataSource;
        this.url = jdbcUrl(dataSource);
    }

    /**
     * The JDBC URL of the data source, read from the pool or driver data source behind any delegating wrappers.
     *
     * @return the URL, or {@code null} when the data source does not tell it
     */
    @Nullable String url() {
        return url;
    }

    /**
     * The dialect the JDBC URL names, found without a connection.
     *
     * @return the dialect, or {@code null} when the URL is unknown or names another database
     */
    @Nullable LockDialect dialectFromUrl() {
        if (url == null) {
            return null;
        }
        return LockDialects.forJdbcUrl(url);
    }

    /**
     * Takes a connection and gives it back at once.
     *
     * @return {@code null} when a connection could be had, otherwise why not
     */
    @Nullable Exception tryConnect() {
        try (Connection connection = dataSource.getConnection()) {
            return null;
        }
        catch (SQLException | RuntimeException ex) {
            return ex;
        }
    }

    /**
     * Describes a failure to reach the database.
     *
     * @param purpose what the connection was for
     * @param failure what the data source or driver threw
     * @param action what the user can do about it
     * @return the exception to throw, with {@code failure} as its cause
     */
    LockDatabaseUnreachableException unreachable(String purpose, Throwable failure, String action) {
        return new LockDatabaseUnreachableException("Distributed locks could not " + purpose + " at start-up: the "
                + "database " + (url != null ? "at " + url + " " : "") + "could not be reached (" + describe(failure)
                + ").", url, action, failure);
    }

    /**
     * Describes a failure with its own message and, when different, its root cause's.
     *
     * @param failure the failure
     * @return for example {@code Failed to initialize pool: Connection refused; caused by ConnectException: …}
     */
    static String describe(Throwable failure) {
        Throwable root = NestedExceptionUtils.getMostSpecificCause(failure);
        String message = String.valueOf(failure.getMessage()).strip();
        if (root == failure || root.getMessage() == null || message.contains(root.getMessage().strip())) {
            return message;
        }
        return message + "; caused by " + root.getClass().getSimpleName() + ": " + root.getMessage().strip();
    }

    private static @Nullable String jdbcUrl(DataSource dataSource) {
        DataSource target = dataSource;
        while (target instanceof DelegatingDataSource delegating && delegating.getTargetDataSource() != null) {
            target = delegating.getTargetDataSource();
        }
        try {
            BeanWrapper wrapper = PropertyAccessorFactory.forBeanPropertyAccess(target);
            for (String property : URL_PROPERTIES) {
                if (wrapper.isReadableProperty(property)
                        && wrapper.getPropertyValue(property) instanceof String value && !value.isBlank()) {
                    return value;
                }
            }
        }
        catch (RuntimeException ex) {
            // A data source whose getters fail tells no URL; messages then go without it.
        }
        return null;
    }
}
