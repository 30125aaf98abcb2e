package io.distlock.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.testsupport.TestDatabase;

/**
 * The connection pool of the benchmarks: every implementation gets the same HikariCP settings on the same database.
 */
final class BenchPool {

    /** Pool size for every implementation: enough for the largest thread count, so nobody waits for a connection. */
    static final int SIZE = 16;

    private BenchPool() {
    }

    /**
     * Opens a pool of {@value #SIZE} connections, all opened up front, autocommit.
     *
     * @param database the database
     * @param name the pool's name, for thread names
     * @return the pool
     */
    static HikariDataSource open(TestDatabase database, String name) {
        return database.openPool("bench-" + database.id() + "-" + name, SIZE);
    }
}
