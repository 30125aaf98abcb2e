package io.distlock.spring.jdbc;

import io.distlock.jdbc.dialect.LockDialects;

/**
 * {@code distributed-lock.dialect} names no supported lock dialect.
 */
final class UnknownLockDialectException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String dialect;

    UnknownLockDialectException(String dialect, Throwable cause) {
        super("distributed-lock.dialect = '" + dialect + "' is not a lock dialect; supported: " + LockDialects.SUPPORTED,
                cause);
        this.dialect = dialect;
    }

    /**
     * The configured value.
     *
     * @return the dialect as configured
     */
    String dialect() {
        return dialect;
    }
}
