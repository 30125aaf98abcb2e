package io.distlock.jdbc;

import javax.sql.DataSource;

import io.distlock.core.LockManager;

/**
 * The common case of the JDBC store in one call: a {@link LockManager} on the lock table of a data source, with the
 * dialect detected and the default table name.
 *
 * <pre>{@code
 * LockManager locks = JdbcLockManager.builder(dataSource).build();   // checks that the lock table exists
 * }</pre>
 *
 * For another table, dialect, time source or statement timeout, build the repository yourself:
 * {@code LockManager.builder(JdbcLockRepository.builder(dataSource).tableName("app_locks").build())}.
 */
public final class JdbcLockManager {

    private JdbcLockManager() {
    }

    /**
     * Starts building a manager on the lock table of a data source.
     *
     * @param dataSource where the lock table lives
     * @return the manager's builder
     */
    public static LockManager.Builder builder(DataSource dataSource) {
        return LockManager.builder(JdbcLockRepository.builder(dataSource).build());
    }
}
